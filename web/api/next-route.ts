import { nextHandlers } from "../http/next-adapter";
import { serve } from "../services";
import { apiRoutes } from "./routes";

/** A /v1 endpoint of the route table as Next's route handlers: what app/v1/<path>/route.ts exports. */
export const nextRoute = (path: string) => nextHandlers(serve, apiRoutes.at(path));
