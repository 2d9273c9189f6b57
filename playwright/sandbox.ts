/**
 * Runs the six sandbox scenarios through the experience API: what an agency's preview does before
 * the brand approves. The fixtures approve with it; the tests use it too.
 */
import { SANDBOX_SCENARIOS } from '../emulator/use-cases/sandbox.js';

export type ExperiencePost = (path: string, body: object, session?: string) => Promise<{ status: number; body: { session_token?: string } }>;

export async function coverSandbox(post: ExperiencePost, scenarios: readonly string[] = SANDBOX_SCENARIOS): Promise<void> {
  for (const scenario of scenarios) {
    const session = await post('/sessions', { scenario });
    if (session.status !== 201) throw new Error(`sandbox session ${scenario}: ${session.status}`);
    await post('/session/entry', {}, session.body.session_token);
  }
}

/** The same calls over fetch, for a running emulator. */
export function fetchPost(baseUrl: string, key: string): ExperiencePost {
  return async (path, body, session) => {
    const res = await fetch(`${baseUrl}/api/experience/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(session ? { 'x-service-session': session } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { session_token?: string } };
  };
}
