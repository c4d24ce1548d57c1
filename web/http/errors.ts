/** The API's error codes and the status each one answers with (docs/api.md#errors). */
export const ERROR_STATUS = {
  invalid_parameter: 400,
  missing_parameter: 400,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  internal_error: 500,
  upstream_error: 502,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: string;
  code: ErrorCode;
  param?: string;
}

/** An error meant for the client: thrown anywhere below a route, answered once by the wrapper. */
export class ApiError extends Error {
  override name = "ApiError";
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly param?: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
    this.headers = headers;
  }

  get body(): ErrorBody {
    return this.param === undefined
      ? { error: this.message, code: this.code }
      : { error: this.message, code: this.code, param: this.param };
  }
}

export const invalidParameter = (param: string, message: string) => new ApiError("invalid_parameter", message, param);
export const notFound = (message: string) => new ApiError("not_found", message);
