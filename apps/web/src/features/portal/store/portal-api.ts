import { createApi, type BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { describeError, HttpError, http, type RequestOptions } from '@/lib/http-client.ts';

/** A failed call as the store keeps it: plain data, so it can live in Redux state. */
export interface ApiFailure {
  status: number;
  /** The server's `{ message }`, or its response text, or the client's own description. */
  message: string;
  text: string;
}

export interface QueryArgs extends RequestOptions {
  url: string;
  /** The contract schema the answer must match (it also fills the spec's defaults). */
  schema?: { parse(data: unknown): unknown };
}

export function toFailure(error: unknown): ApiFailure {
  const status = error instanceof HttpError ? error.status : 0;
  return { status, message: describeError(error), text: error instanceof HttpError ? error.responseText : '' };
}

const httpBaseQuery: BaseQueryFn<QueryArgs, unknown, ApiFailure> = async ({ url, schema, ...options }) => {
  try {
    const data = await http.request(url, options);
    return { data: schema ? schema.parse(data) : data };
  } catch (error) {
    return { error: toFailure(error) };
  }
};

/**
 * The portal's one cache of server data. Each feature declares its own endpoints on it with injectEndpoints
 * (insights-api.ts, tests-api.ts, ...); API-key calls take the key from the client profile, the same key a
 * client's CI uses, and the HTTP client adds the header.
 */
export const portalApi = createApi({
  reducerPath: 'portalApi',
  baseQuery: httpBaseQuery,
  tagTypes: ['Profile', 'Tests', 'Reports', 'Insights', 'Requests'],
  endpoints: () => ({}),
});
