/**
 * Why a browser request to a model endpoint failed before any answer came back, in plain
 * words. `fetch` only says "TypeError: Failed to fetch" both when the server is down and when
 * it answered without allowing this page's origin (CORS); for a cross-origin address the second
 * is the usual cause, so say what to set on the common local servers.
 */
export interface NetworkExplanation {
  title: string;
  lines: string[];
}

const servers = (origin: string) => [
  { match: (u: URL) => u.port === '11434', line: `Ollama: set OLLAMA_ORIGINS=${origin} (or *) in the server's environment and restart it.` },
  { match: (u: URL) => u.port === '1234', line: 'LM Studio: turn on “Enable CORS” in the Developer / server settings, then restart the server.' },
  { match: (u: URL) => u.port === '8000', line: `vLLM: start it with --allowed-origins '["${origin}"]' (and --allowed-headers '["*"]' if it also rejects headers).` },
  { match: () => false, line: `Other servers: have them answer with Access-Control-Allow-Origin: ${origin} (or put them behind a proxy that does).` },
];

export function isNetworkFailure(message: string): boolean {
  return /failed to fetch|networkerror|load failed|could not reach the endpoint|network request failed/i.test(message);
}

export function explainNetworkFailure(endpoint: string, pageOrigin: string): NetworkExplanation {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { title: 'The address is not a valid URL.', lines: [`Check the base URL: ${endpoint}`] };
  }
  if (url.origin === pageOrigin) return { title: `${url.host} did not answer.`, lines: ['Check that the server is running and the base URL is right.'] };
  const lines: string[] = [];
  if (pageOrigin.startsWith('https:') && url.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) {
    lines.push(`This page is served over https, so the browser refuses plain http to ${url.host} (mixed content). Use https for the endpoint.`);
  }
  lines.push(
    `Either nothing is listening at ${url.origin}, or the server answered without allowing requests from this page (${pageOrigin}); the browser hides which.`,
    'If the server is running, it must send Access-Control-Allow-Origin for this page (CORS):',
  );
  const all = servers(pageOrigin);
  const likely = all.filter((s) => s.match(url));
  lines.push(...[...likely, ...all.filter((s) => !likely.includes(s))].map((s) => `• ${s.line}`));
  lines.push('Hosted APIs (OpenAI, Anthropic) allow browsers; for those, check the address and your network.');
  return { title: `The browser could not get an answer from ${url.host}.`, lines };
}
