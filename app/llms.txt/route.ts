import { llmsHandlers } from "@/web/agents/llms-route";

export const dynamic = "force-dynamic";

// Answered by the API core (web/agents/llms-route.ts), as the /v1 endpoints are.
export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = llmsHandlers();
