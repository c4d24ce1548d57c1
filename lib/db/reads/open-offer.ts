/**
 * An open offer, over a row `alias` of offers: active, not flagged by the
 * lapse job, and not past its expiry (so exact whether or not the job has
 * run; see statusBranches in offers.ts). One condition for every read that
 * means "open".
 */
export const openOffer = (alias: string): string => `${alias}.state = 'active' and not ${alias}.lapsed and ${alias}.expires_at > now()`;
