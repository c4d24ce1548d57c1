/**
 * Active and not flagged by the lapse job, over a row `alias` of offers: the
 * rows open_book sums and offers_open_book_idx holds, open or lapsed by the
 * clock.
 */
export const openCandidate = (alias: string): string => `${alias}.state = 'active' and not ${alias}.lapsed`;

/**
 * An open offer, over a row `alias` of offers: active, not flagged by the
 * lapse job, and not past its expiry (so exact whether or not the job has
 * run; see statusBranches in offers.ts). One condition for every read that
 * means "open".
 */
export const openOffer = (alias: string): string => `${openCandidate(alias)} and ${alias}.expires_at > now()`;

/** Past its expiry but not yet flagged by the lapse job (offers_lapse_due_idx): expired to a reader, still a candidate in open_book. */
export const lapsedUnflagged = (alias: string): string => `${openCandidate(alias)} and ${alias}.expires_at <= now()`;
