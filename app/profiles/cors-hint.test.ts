import { describe, expect, it } from 'vitest';
import { explainNetworkFailure, isNetworkFailure } from './cors-hint.ts';

describe('explainNetworkFailure', () => {
  it('names the setting for the server on that port first, and lists the others', () => {
    const ollama = explainNetworkFailure('http://127.0.0.1:11434/v1', 'http://127.0.0.1:4173');
    expect(ollama.lines.find((l) => l.startsWith('•'))).toContain('OLLAMA_ORIGINS=http://127.0.0.1:4173');
    expect(ollama.lines.join('\n')).toMatch(/LM Studio: turn on “Enable CORS”/);
    expect(ollama.lines.join('\n')).toMatch(/vLLM: start it with --allowed-origins/);
    expect(explainNetworkFailure('http://localhost:1234/v1', 'http://x').lines.find((l) => l.startsWith('•'))).toContain('LM Studio');
    expect(explainNetworkFailure('http://gpu-box:8000/v1', 'http://x').lines.find((l) => l.startsWith('•'))).toContain('vLLM');
  });

  it('warns about mixed content and recognises network failures', () => {
    expect(explainNetworkFailure('http://gpu-box:8000/v1', 'https://app.example').lines[0]).toMatch(/mixed content/);
    expect(explainNetworkFailure('http://127.0.0.1:4173/api', 'http://127.0.0.1:4173').lines).toEqual(['Check that the server is running and the base URL is right.']);
    expect(isNetworkFailure('Could not reach the endpoint: Failed to fetch')).toBe(true);
    expect(isNetworkFailure('The endpoint refused the API key')).toBe(false);
  });
});
