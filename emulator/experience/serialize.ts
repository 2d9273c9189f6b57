/** JSON shapes of the experience API. @see spec §2.2 to §2.5 */
import type { Config } from '../context.js';
import type { Admission } from '../domain/admission.js';
import type { Entry } from '../store/entries.js';
import type { Campaign, Prize } from '../store/promotions.js';
import type { Environment } from '../store/keys.js';
import { REWARDS_PATH, shownCodes, shownRedemptionUrl } from '../use-cases/entry-shown.js';
import type { SessionView } from '../use-cases/session-view.js';
import type { CampaignJson, CampaignReadJson, EligibilityJson, EntryJson, SessionCreatedJson, SessionReadJson } from './responses.js';
import { SANDBOX_SCENARIOS } from '../use-cases/sandbox.js';

/** The campaign read: never customers, pool codes, draw seeds or partner credentials. @see spec §2.2 */
export function campaignJson({ promotion, brand, prizes }: Campaign): CampaignJson {
  const { content } = promotion;
  return {
    id: promotion.id,
    name: content.name,
    dates: { start: content.dates.start, end: content.dates.end },
    mechanic: content.mechanic,
    brand: { name: brand.name, slug: brand.slug },
    copy: content.copy,
    prizes: prizes.map((prize) => ({ name: prize.name })),
    rewards_path: REWARDS_PATH,
  };
}

export function campaignReadJson(config: Config, environment: Environment, campaign: CampaignJson): CampaignReadJson {
  return { campaign, environment, authorize_url: `${config.baseUrl}/authorize`, sandbox_scenarios: [...SANDBOX_SCENARIOS] };
}

/**
 * The session read's eligibility: what the entry would answer now, before consent. Open (consent
 * still to give) and the collector's own entry are eligible; the refusals carry the entry's reason.
 */
export function eligibilityJson(admission: Admission, country: string | null): EligibilityJson {
  switch (admission.kind) {
    case 'open':
    case 'entered':
      return { eligible: true, reason: null, country };
    case 'closed':
      return { eligible: false, reason: 'unavailable', country };
    case 'already_entered':
      return { eligible: false, reason: 'already_entered', country };
    case 'ineligible':
      return { eligible: false, reason: admission.reason, country };
  }
}

export function entryJson(entry: Entry, prize: Prize | undefined): EntryJson {
  return {
    id: entry.id,
    state: entry.state,
    prize: prize ? { name: entry.prize_name ?? prize.name, reward_type: prize.reward_type, tier: prize.tier, face_value: prize.face_value } : null,
    codes: shownCodes(entry),
    redemption_url: shownRedemptionUrl(entry),
    created_at: new Date(entry.created_at).toISOString(),
  };
}

export function sessionJson(view: SessionView): SessionReadJson;
export function sessionJson(view: SessionView, token: string): SessionCreatedJson;
export function sessionJson(view: SessionView, token?: string): SessionReadJson | SessionCreatedJson {
  const { session, campaign, entry } = view;
  const fields = {
    expires_at: new Date(session.expires_at).toISOString(),
    campaign: campaignJson(campaign),
    terms: view.terms,
    eligibility: eligibilityJson(view.admission, session.country),
    entry: entry ? entryJson(entry, campaign.prizes.find((prize) => prize.id === entry.prize_id)) : null,
    delivery: { state: entry?.delivery_state ?? 'none' },
    sandbox: session.sandbox === 1,
  };
  return token ? { session_token: token, ...fields } : fields;
}
