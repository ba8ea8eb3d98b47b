// What a service address and an API key must be before anything is sent: one rule for the client's options and for choosing the service (service/service-settings.ts), so a mistake in either is refused before a run starts, not met by each article.

/** Why `url` cannot be the service's root: each reason without its subject (`must not have a query or a fragment`); empty when it can. */
export function serviceAddressProblems(url: URL): string[] {
  const problems: string[] = [];
  if (url.protocol !== 'http:' && url.protocol !== 'https:') problems.push(`must use http or https, not ${url.protocol}`);
  // Credentials in the URL would be a second, unredacted secret.
  if (url.username !== '' || url.password !== '') problems.push('must not contain a user name or password: remove them (the key goes in the API key, never in the address)');
  if (url.search !== '' || url.hash !== '') problems.push('must not have a query or a fragment: remove everything from the ? or # on');
  return problems;
}

/** Why `apiKey` cannot be sent in an `Authorization: Bearer` header, without its subject; undefined when it can. */
export function apiKeyProblem(apiKey: string): string | undefined {
  return /^[\x21-\x7e]+$/.test(apiKey) ? undefined : 'contains spaces, line breaks or non-ASCII characters: look for a stray newline or quote';
}
