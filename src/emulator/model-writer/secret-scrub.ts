// Keeping the writer's key out of text a server sent back: a hostile or careless server may echo it in an error.
// (The emulator never imports the client's redactor; this is the small part it needs.)

const MASK = '[redacted]';

/** The forms a key may take in echoed text: as is, URL-encoded, base64 and base64url (also of `Bearer <key>`). */
function formsOf(secret: string): string[] {
  const forms = new Set<string>([secret, encodeURIComponent(secret)]);
  for (const text of [secret, `Bearer ${secret}`, `:${secret}`]) {
    const base64 = Buffer.from(text).toString('base64');
    forms.add(base64);
    forms.add(base64.replace(/=+$/, ''));
    forms.add(Buffer.from(text).toString('base64url'));
  }
  return [...forms].filter((form) => form.length >= 4).sort((a, b) => b.length - a.length);
}

/** `text` with every form of `secret` masked; `text` itself when there is no secret. */
export function scrubSecret(text: string, secret: string | undefined): string {
  if (secret === undefined || secret === '') return text;
  let out = text;
  for (const form of formsOf(secret)) out = out.split(form).join(MASK);
  return out;
}
