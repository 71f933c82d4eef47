import { useState, type FormEvent } from 'react';
import { baseUrlProblem, endpointProfileSchema, type EndpointProfile } from '../../src/providers/index.ts';
import { openDb } from '../persistence/connection.ts';
import { getApiKey } from '../persistence/profiles.ts';
import type { ConnectionResult } from './connection-test.ts';

interface Props {
  profile: EndpointProfile | null;
  keyStored: boolean;
  onSave(profile: EndpointProfile, apiKey: string | undefined): void;
  onDelete?: () => void;
}

const defaultBaseUrl = { openai: 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com' } as const;

type Kind = 'openai' | 'anthropic';
type AnthropicVersion = NonNullable<EndpointProfile['anthropicVersion']>;

/**
 * One profile. The key field is a password box that starts empty: a stored key is never read
 * back into the page; leaving the box empty keeps it.
 */
export function ProfileForm({ profile, keyStored, onSave, onDelete }: Props) {
  const [kind, setKind] = useState<Kind>(profile?.kind === 'anthropic' ? 'anthropic' : 'openai');
  const [name, setName] = useState(profile?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? defaultBaseUrl.openai);
  const [model, setModel] = useState(profile?.model ?? '');
  const [contextWindow, setContextWindow] = useState(String(profile?.contextWindow ?? 128000));
  const [maxOutputTokens, setMaxOutputTokens] = useState(String(profile?.maxOutputTokens ?? 4096));
  const [structuredOutput, setStructuredOutput] = useState(profile?.structuredOutput ?? true);
  const [anthropicVersion, setAnthropicVersion] = useState<AnthropicVersion>(profile?.anthropicVersion ?? '2026-10-21');
  const [priceIn, setPriceIn] = useState(String(profile?.prices.input ?? 0));
  const [priceOut, setPriceOut] = useState(String(profile?.prices.output ?? 0));
  const [apiKey, setApiKey] = useState('');
  const [forgetKey, setForgetKey] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<ConnectionResult | null>(null);

  const read = () => {
    const parsed = endpointProfileSchema.safeParse({
      id: profile?.id ?? `profile-${globalThis.crypto.randomUUID().slice(0, 8)}`,
      name: name.trim(),
      kind,
      baseUrl: baseUrl.trim(),
      model: model.trim(),
      contextWindow: Number(contextWindow),
      maxOutputTokens: Number(maxOutputTokens),
      structuredOutput,
      // Only Anthropic profiles carry a version; an OpenAI profile stays as it was saved before.
      ...(kind === 'anthropic' ? { anthropicVersion } : {}),
      prices: { input: Number(priceIn), output: Number(priceOut) },
    });
    const problems = parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || 'profile'}: ${i.message}`);
    const urlProblem = /^https?:\/\/[^\s]+$/.test(baseUrl.trim()) ? baseUrlProblem(baseUrl.trim()) : 'must be an http(s) address';
    if (urlProblem && !problems.some((p) => p.startsWith('baseUrl'))) problems.push(`baseUrl: ${urlProblem}`);
    setErrors(problems);
    return parsed.success && problems.length === 0 ? parsed.data : null;
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const data = read();
    if (data) onSave(data, forgetKey ? '' : apiKey === '' ? undefined : apiKey);
  };

  // The form as filled in now (saved or not), with the typed key or else the stored one.
  const test = async () => {
    const data = read();
    if (!data) return;
    setTesting(true);
    setTested(null);
    try {
      const key = forgetKey ? undefined : apiKey || (profile && keyStored ? await getApiKey(await openDb(), profile.id) : undefined);
      const { testConnection } = await import('./connection-test.ts');
      setTested(await testConnection(data, key));
    } catch (error) {
      setTested({ ok: false, status: null, message: (error as Error).message, ms: 0 });
    } finally {
      setTesting(false);
    }
  };

  const text = (label: string, testId: string, value: string, set: (v: string) => void, type = 'text') => (
    <label className="field">
      <span className="field-label">{label}</span>
      <input className="input" type={type} data-testid={testId} value={value} autoComplete="off" onChange={(e) => set(e.target.value)} />
    </label>
  );

  return (
    <form className="profile-form" onSubmit={submit} autoComplete="off">
      {text('Name', 'profile.form.name', name, setName)}
      <label className="field">
        <span className="field-label">Protocol</span>
        <select
          className="input"
          data-testid="profile.form.kind"
          value={kind}
          onChange={(e) => {
            const next = e.target.value as Kind;
            if (baseUrl === defaultBaseUrl[kind] || baseUrl === '') setBaseUrl(defaultBaseUrl[next]);
            setKind(next);
          }}
        >
          <option value="openai">OpenAI-compatible chat completions</option>
          <option value="anthropic">Anthropic Messages</option>
        </select>
        {/* The servers in a line of their own: in the option they were cut off by the select's width. */}
        {kind === 'openai' && <span className="muted small">OpenAI, vLLM, llama.cpp server, Ollama, LM Studio and others that speak it.</span>}
      </label>
      {kind === 'anthropic' && (
        <label className="field">
          <span className="field-label">API version</span>
          <select className="input" data-testid="profile.form.anthropicVersion" value={anthropicVersion} onChange={(e) => setAnthropicVersion(e.target.value as AnthropicVersion)}>
            <option value="2026-10-21">2026-10-21 (current; no temperature)</option>
            <option value="2023-06-01">2023-06-01 (sends temperature)</option>
          </select>
        </label>
      )}
      {text('Base URL', 'profile.form.baseUrl', baseUrl, setBaseUrl)}
      {text('Model', 'profile.form.model', model, setModel)}
      <div className="row">
        {text('Context window (tokens)', 'profile.form.contextWindow', contextWindow, setContextWindow, 'number')}
        {text('Max output tokens', 'profile.form.maxOutputTokens', maxOutputTokens, setMaxOutputTokens, 'number')}
      </div>
      <div className="row">
        {text('Input price (USD per 1M tokens)', 'profile.form.priceInput', priceIn, setPriceIn, 'number')}
        {text('Output price (USD per 1M tokens)', 'profile.form.priceOutput', priceOut, setPriceOut, 'number')}
      </div>
      <label className="checkbox">
        <input type="checkbox" data-testid="profile.form.structuredOutput" checked={structuredOutput} onChange={(e) => setStructuredOutput(e.target.checked)} />
        Supports structured output (JSON Schema response format)
      </label>
      <label className="field">
        <span className="field-label">API key</span>
        <input
          className="input"
          type="password"
          data-testid="profile.form.apiKey"
          value={apiKey}
          autoComplete="new-password"
          placeholder={keyStored ? 'A key is stored: leave empty to keep it' : 'Stored in this browser only'}
          onChange={(e) => setApiKey(e.target.value)}
          disabled={forgetKey}
        />
      </label>
      {keyStored && (
        <label className="checkbox">
          <input type="checkbox" checked={forgetKey} onChange={(e) => setForgetKey(e.target.checked)} /> Forget the stored key
        </label>
      )}
      {errors.map((e) => (
        <div key={e} className="field-error">
          {e}
        </div>
      ))}
      {tested && (
        <div className={tested.ok ? 'connection-result ok' : 'connection-result bad'} data-testid="profile.test.result" role="status">
          <strong>{tested.ok ? 'Connected' : tested.status ? `HTTP ${tested.status}` : 'No answer'}</strong>
          {tested.ok && tested.status ? ` · HTTP ${tested.status}` : ''} · {tested.message}
          {tested.explanation && (
            <div className="connection-explain" data-testid="profile.test.cors">
              <div>{tested.explanation.title}</div>
              {tested.explanation.lines.map((line) => (
                <div key={line}>{line}</div>
              ))}
            </div>
          )}
        </div>
      )}
      <div className="row end">
        <button type="button" className="button" data-testid="profile.test" disabled={testing} onClick={() => void test()} title="Send one tiny request to this endpoint">
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        {onDelete && (
          <button type="button" className="button danger" onClick={onDelete}>
            Delete profile
          </button>
        )}
        <button type="submit" className="button primary" data-testid="profile.save">
          Save profile
        </button>
      </div>
    </form>
  );
}
