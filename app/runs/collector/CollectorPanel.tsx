import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useCollectorStore } from '../../stores/collector-store.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { answerBacklog, connectCollector, disconnectByPerson, lastAddress } from './collector-connection.ts';
import { DEFAULT_COLLECTOR } from './collector-page.ts';

/**
 * Connect collector: the dialog that takes the address and token `seamscope collect` printed,
 * then the connection's state under the Runs title, with Disconnect. Loaded on first use.
 */
function ConnectDialog({ onDone }: { onDone(connected: boolean): void }) {
  const [address, setAddress] = useState(() => lastAddress() ?? DEFAULT_COLLECTOR);
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [backlog, setBacklog] = useState<{ waiting: number; restarted: boolean; origin: string } | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const outcome = await connectCollector(address, token);
    setBusy(false);
    if ('problem' in outcome) setProblem(outcome.problem);
    else if ('waiting' in outcome) setBacklog(outcome);
    else onDone(true);
  };
  if (backlog) {
    const answer = (choice: 'all' | 'new' | null) => {
      answerBacklog(choice);
      onDone(choice !== null);
    };
    return <BacklogQuestion {...backlog} onAnswer={answer} />;
  }
  return (
    <Dialog
      title="Connect collector"
      testId="collector.dialog"
      onClose={() => onDone(false)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onDone(false)}>
            Cancel
          </button>
          <button type="submit" form="collector-form" className="button primary" data-testid="collector.submit" disabled={busy}>
            {busy ? 'Connecting…' : 'Connect'}
          </button>
        </>
      }
    >
      <form id="collector-form" onSubmit={(e) => void submit(e)}>
        <p className="field-note">
          Run <code>npx seamscope collect</code> and point your application's OpenTelemetry exporter at it. Each trace it finishes appears under Runs, imported as Import trace does. Connecting lets
          this app reach that address.
        </p>
        <label className="field">
          <span className="field-label">Address</span>
          <input className="input mono" data-testid="collector.address" value={address} spellCheck={false} autoComplete="off" maxLength={300} onChange={(e) => setAddress(e.target.value)} />
        </label>
        <label className="field">
          <span className="field-label">Token (printed by the collector at start)</span>
          <input className="input mono" data-testid="collector.token" type="password" value={token} autoComplete="off" autoFocus maxLength={300} onChange={(e) => setToken(e.target.value)} />
        </label>
        {problem && (
          <p className="field-error" role="alert" data-testid="collector.problem">
            {problem}
          </p>
        )}
      </form>
    </Dialog>
  );
}

/**
 * The collector already holds traces (sent before the person connected): which to import is
 * theirs to say, never assumed. Closing the dialog imports nothing and disconnects.
 */
function BacklogQuestion({ waiting, restarted, origin, onAnswer }: { waiting: number; restarted: boolean; origin: string; onAnswer(choice: 'all' | 'new' | null): void }) {
  const traces = `${waiting} trace${waiting === 1 ? '' : 's'}`;
  const first = useRef<HTMLButtonElement>(null);
  // After the dialog's showModal (a parent's effect runs after its children's), which would
  // otherwise focus the Close button: Enter answers, Shift+Tab reaches Only new ones.
  useEffect(() => first.current?.focus(), []);
  return (
    <Dialog
      title="Connect collector"
      testId="collector.dialog"
      onClose={() => onAnswer(null)}
      footer={
        <>
          <button type="button" className="button" onClick={() => onAnswer(null)}>
            Cancel
          </button>
          <button type="button" className="button" data-testid="collector.backlog.new" onClick={() => onAnswer('new')}>
            Only new ones
          </button>
          <button type="button" className="button primary" data-testid="collector.backlog.all" ref={first} onClick={() => onAnswer('all')}>
            Import {waiting === 1 ? 'it' : `all ${waiting}`}
          </button>
        </>
      }
    >
      <p data-testid="collector.backlog">
        <strong>{traces} already collected</strong> at <code className="mono">{origin.replace(/^https?:\/\//, '')}</code>
        {restarted ? ', and the collector has restarted since you chose to import only new ones, so the app cannot tell which of them you skipped.' : ', sent before you connected.'}
      </p>
      <p className="field-note">
        Import {waiting === 1 ? 'it' : 'them'} into this browser, or only the traces your application sends from now on? The choice is kept for this collector on this device. A trace imported before is never imported twice.
      </p>
    </Dialog>
  );
}

const STATUS_WORDS = { off: 'not connected', connecting: 'connecting…', connected: 'connected', retrying: 'retrying' } as const;

/** The connection's state (or why it stopped), and the dialog while `asking`. */
export default function CollectorPanel({ asking, onAsked }: { asking: boolean; onAsked(connected: boolean): void }) {
  const state = useCollectorStore();
  const host = state.origin?.replace(/^https?:\/\//, '') ?? '';
  // A connection that stopped by itself (token refused, consent withdrawn) says why until dismissed.
  const stopped = state.status === 'off' && state.problem !== null && !asking;
  return (
    <>
      {state.status !== 'off' && (
        <div className={`collector-strip status-${state.status === 'connected' ? 'succeeded' : state.status === 'retrying' ? 'failed' : 'running'}`} data-testid="collector.state" role="status" title={`Collector ${state.origin ?? ''}${state.problem ? `: ${state.problem}` : ''}`}>
          <span className="collector-line">
            <span className="status-dot" aria-hidden="true" />
            <span className="collector-text">
              Collector {STATUS_WORDS[state.status]} · {state.received} trace{state.received === 1 ? '' : 's'}
            </span>
          </span>
          <span className="collector-line">
            <span className="collector-text collector-where mono">{host}</span>
            <button type="button" className="button small" data-testid="collector.disconnect" onClick={() => disconnectByPerson()}>
              Disconnect
            </button>
          </span>
          {state.status === 'retrying' && state.problem && <span className="collector-problem">{state.problem}</span>}
        </div>
      )}
      {stopped && (
        <div className="collector-strip is-stopped status-failed" data-testid="collector.state" role="status">
          <span className="status-dot" aria-hidden="true" />
          <span className="collector-text">Collector disconnected: {state.problem}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => useCollectorStore.setState({ problem: null })}>
            ×
          </button>
        </div>
      )}
      {asking && <ConnectDialog onDone={onAsked} />}
    </>
  );
}
