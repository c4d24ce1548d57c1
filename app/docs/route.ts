import { ApiReference } from "@scalar/nextjs-api-reference";

// The API reference, rendered by Scalar from GET /v1/openapi.json. A route
// handler of its own: Scalar's script loads on this page only, never in the
// explorer's bundles.
export const GET = ApiReference({
  url: "/v1/openapi.json",
  pageTitle: "Offer book explorer API",
  hideClientButton: true,
});
