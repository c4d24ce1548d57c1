/**
 * The one place the wording rule is said: buttons speak for the taker (you),
 * while a row's side, like the API's `side`, is the offer's.
 */
export function SideRule() {
  return (
    <p className="text-xs text-muted" data-testid="side-rule">
      <span className="font-medium text-fg">Buy</span> and <span className="font-medium text-fg">Sell</span> are what you do as the taker: you buy from an
      ask (a sell offer, <code>side=sell</code> in the API) and sell into a bid (a buy offer, <code>side=buy</code>). A fill keeps the offer&apos;s side.
    </p>
  );
}
