import { errorResponse } from '@fullstop/contracts';

/** Declares the error answers of a route (all `{ message, code?, field? }`), for the OpenAPI document. */
export function errorResponses<const S extends readonly number[]>(...statuses: S): { [K in S[number]]: typeof errorResponse } {
  return Object.fromEntries(statuses.map((s) => [s, errorResponse])) as { [K in S[number]]: typeof errorResponse };
}
