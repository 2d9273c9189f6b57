/** The authorize page: the campaign and a Continue button for the signed-in collector. @see spec §4.3 step 5 */
import type { AuthorizeRequest } from '../../use-cases/journey/authorize.js';
import { type Html, html } from '../../pages/html.js';
import type { Brand, Promotion } from '../../store/promotions.js';
import { type PageContext, journeyPage } from './shell.js';

export function authorizePage(page: PageContext, promotion: Promotion, brand: Brand, request: AuthorizeRequest, callbackOrigin: string): Html {
  const { content } = promotion;
  return journeyPage(
    page,
    `Continue to ${content.name}`,
    html`<section aria-labelledby="campaign"><h2 id="campaign">${content.copy.headline}</h2>
      <p>${brand.name} runs <strong>${content.name}</strong> on its own website at <strong>${callbackOrigin}</strong>.</p>
      <p>${content.copy.body}</p>
      <p>When you continue, the service tells that website who you are, which pack you scanned and your country, so it can enter the pack for you.</p>
      <form method="post" action="/authorize">${page.form.field()}
        <input type="hidden" name="request_token" value="${request.requestToken}">
        <input type="hidden" name="state" value="${request.state}">
        <input type="hidden" name="code_challenge" value="${request.codeChallenge}">
        <input type="hidden" name="code_challenge_method" value="S256">
        <button type="submit">Continue</button>
      </form>
      <p><a href="/rewards">Cancel and go to your Rewards</a></p></section>`,
  );
}
