/**
 * The running emulator's connection values, as `emulator env` and `/_emulator/env` show them. The
 * top-level fields describe one promotion (the default one, or the one asked for); `promotions`
 * and `companies` list the whole world.
 */
import type { Context } from '../../context.js';
import { issueSecret } from '../../domain/secrets.js';
import { listCollectors } from '../../store/collectors.js';
import { listCompanies, listCompanyBrands } from '../../store/companies.js';
import { keySecret } from '../../store/keys.js';
import { type KnownPack, knownOutcomePacks } from '../../store/known-packs.js';
import { type Promotion, defaultPromotionId, listPromotions, loadCampaign } from '../../store/promotions.js';
import { listPromotionSkus } from '../../store/skus.js';
import { promotionPackCodes } from '../../store/units.js';
import { seededKeys } from '../../store/world.js';

export function envValues(ctx: Context, promotionId = defaultPromotionId(ctx.db)) {
  const companies = companiesOf(ctx);
  const promotions = listPromotions(ctx.db).map((promotion) => promotionEnv(ctx, promotion, companies));
  const { id, slug, name, mechanic, brand_slug, sandbox_key, production_key, reporting_token, packs, known_outcome_packs, test_packs, tester_packs, preview_packs, recalled_packs } =
    promotions.find((promotion) => promotion.id === promotionId)!;
  return {
    base_url: ctx.config.baseUrl,
    // The dashboard answers loopback callers only: where the emulator listens, not its public URL.
    dashboard_url: `${ctx.config.localUrl ?? ctx.config.baseUrl}/`,
    sandbox_key,
    production_key,
    reporting_token,
    brand_slug,
    promotion_id: id,
    promotion: { id, slug, name, mechanic },
    packs,
    known_outcome_packs,
    test_packs,
    tester_packs,
    preview_packs,
    recalled_packs,
    collectors: listCollectors(ctx.db),
    companies: companies.map(({ brandIds: _brandIds, ...company }) => company),
    promotions,
  };
}

export type EnvValues = ReturnType<typeof envValues>;

interface CompanyEnv {
  id: number;
  name: string;
  reporting_token: string;
  brands: string[];
  brandIds: number[];
}

/** Each company's reporting token is the serial of its place in the fixture (store/world.ts). */
function companiesOf(ctx: Context): CompanyEnv[] {
  return listCompanies(ctx.db).map((company, index) => {
    const brands = listCompanyBrands(ctx.db, company.id);
    return {
      id: company.id, name: company.name, reporting_token: issueSecret(ctx.seed, 'reporting_token', index + 1),
      brands: brands.map((brand) => brand.slug), brandIds: brands.map((brand) => brand.id),
    };
  });
}

/** One promotion's values: its seeded keys, its company's token, its SKUs and packs whose draw is known. */
function promotionEnv(ctx: Context, promotion: Promotion, companies: CompanyEnv[]) {
  const campaign = loadCampaign(ctx.db, promotion.id);
  const keys = seededKeys(ctx.db).filter((key) => key.promotion_id === promotion.id);
  const keyFor = (environment: 'sandbox' | 'production') => {
    const seeded = keys.find((key) => key.environment === environment);
    return seeded ? keySecret(ctx.seed, environment, seeded.serial) : null;
  };
  const company = companies.find((candidate) => candidate.brandIds.includes(promotion.brand_id))!;
  return {
    id: promotion.id,
    slug: promotion.slug,
    name: promotion.content.name,
    mechanic: promotion.content.mechanic,
    default: promotion.id === defaultPromotionId(ctx.db),
    status: promotion.content.status,
    dates: promotion.content.dates,
    brand_slug: campaign.brand.slug,
    company: company.name,
    sandbox_key: keyFor('sandbox'),
    production_key: keyFor('production'),
    reporting_token: company.reporting_token,
    skus: listPromotionSkus(ctx.db, promotion.id),
    ...packNames(knownOutcomePacks(ctx.db, ctx.seed, campaign), promotionPackCodes(ctx.db, promotion.id, 'test')),
    preview_packs: promotionPackCodes(ctx.db, promotion.id, 'preview'),
    recalled_packs: promotionPackCodes(ctx.db, promotion.id, 'recalled'),
  };
}

/**
 * Known-outcome packs reach the agency; tester packs never do (the hosted page). Each under its
 * name, and under the older `packs` and `test_packs`, kept for scripts written before.
 */
function packNames(knownOutcome: KnownPack[], tester: string[]) {
  return { packs: knownOutcome, known_outcome_packs: knownOutcome, test_packs: tester, tester_packs: tester };
}
