// The article service: request/response schemas and the HTTP client.
export * from './request-schema.js';
export * from './response-schema.js';
export * from './image-size.js';
