// The article service: request/response schemas and the HTTP client.
export * from '../contract/request-schema.js';
export * from '../contract/response-schema.js';
export * from '../contract/image-size.js';
export * from './client.js';
export * from './errors.js';
export { DEFAULT_RETRY_POLICY, type RetryOptions, type RetryPolicy } from './retry-policy.js';
