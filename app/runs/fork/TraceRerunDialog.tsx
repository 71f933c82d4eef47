import { useMemo, useState } from 'react';
import type { ChatMessage } from '../../../src/providers/index.ts';
import type { EndpointProfile } from '../../../src/providers/profiles.ts';
import { applyTemplateEdit, planSpanRerun, recordedCalls, rerunRequestOf, spanOfStep, stepLabel, type AttemptRecord, type PlannedStep } from '../../../src/trace/index.ts';
import { profileLabel } from '../../profiles/profile-label.ts';
import { RerunFidelityLine } from '../RerunFidelityLine.tsx';
import { useEditorStore } from '../../stores/editor-store.ts';
import type { ReplayState } from '../../stores/run-store.ts';
import { selectProfiles } from '../../stores/selectors.ts';
import { Dialog } from '../../ui/Dialog.tsx';
import { forkTraceSpan } from './trace-rerun.ts';
import './trace-rerun.css';

type Mode = 'template' | 'messages';

const TAG: Record<PlannedStep['action'], string> = { reused: 'Reused', rerun: 'Rerun', kept: 'Kept' };

/**
 * Rerun one model span of an imported trace. The person edits what the call was sent (the
 * recorded prompt template and its variables when the instrumentation kept them, else the
 * recorded messages), picks an endpoint profile (the offline demo model first) and a model;
 * the plan says which later calls are sent again with the new output, and which cannot be
 * because the trace does not show what they read.
 */
export function TraceRerunDialog({ replay, stepId, onClose }: { replay: ReplayState; stepId: string; onClose(): void }) {
  const { meta, events, view } = replay;
  const profiles = useEditorStore(selectProfiles);
  // The offline demo model first: a rerun costs nothing and sends nothing until the person picks an endpoint.
  const [profileId, setProfileId] = useState<string | null>(null);
  const profile = profiles.find((p) => p.id === profileId) ?? profiles.find((p) => p.kind === 'demo') ?? profiles[0] ?? null;
  const [typedModel, setModel] = useState<string | null>(null);
  const model = typedModel ?? profile?.model ?? '';
  const calls = useMemo(() => recordedCalls(meta, events), [meta, events]);
  const recorded = calls.find((c) => c.stepId === stepId);
  const template = spanOfStep(meta, stepId)?.promptTemplate;
  const recordedMessages = useMemo(() => recorded?.record.messages ?? [], [recorded]);
  // The template is offered only where its recorded rendering can be found in the messages.
  const templatePlaceable = template !== undefined && !('error' in applyTemplateEdit(recordedMessages, template, template));
  const [mode, setMode] = useState<Mode>(templatePlaceable ? 'template' : 'messages');
  const [templateText, setTemplateText] = useState(template?.template ?? '');
  const [variables, setVariables] = useState<Record<string, string>>(template?.variables ?? {});
  const [messages, setMessages] = useState<ChatMessage[]>(() => recordedMessages.map((m) => ({ ...m })));
  const plan = useMemo(() => {
    try {
      return { ok: true as const, ...planSpanRerun(meta, events, stepId) };
    } catch (error) {
      return { ok: false as const, message: (error as Error).message };
    }
  }, [meta, events, stepId]);

  const toSend = mode === 'template' && template ? applyTemplateEdit(recordedMessages, template, { template: templateText, variables }) : { messages };
  const problem = !plan.ok ? plan.message : 'error' in toSend ? toSend.error : !profile ? 'choose an endpoint profile' : model.trim() === '' ? 'name the model to call' : null;
  // Span names repeat (every call of a client is "ChatCompletion"): the step id tells them apart.
  const name = (id: string) => stepLabel(id, view.steps.find((s) => s.stepId === id)?.name);

  const start = () => {
    if (problem || !profile || !plan.ok || 'error' in toSend) return;
    onClose();
    void forkTraceSpan({
      parent: meta, parentEvents: events, fromStep: stepId, messages: toSend.messages, profile: { ...profile, model: model.trim() }, reused: plan.reused,
      ...(mode === 'template' && template ? { promptTemplate: { ...template, template: templateText, variables } } : {}),
    });
  };

  // A new profile brings its own model; the person can still type another.
  const pickProfile = (id: string) => {
    setProfileId(id);
    setModel(null);
  };

  return (
    <Dialog
      title={`Rerun "${name(stepId)}" from the trace`}
      testId="traceRerun"
      onClose={onClose}
      wide
      footer={
        <>
          <span className="muted small grow">{problem ? `Cannot start: ${problem}` : `Calls ${profile ? profileLabel(profile) : ''}, model ${model.trim()}`}</span>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="button primary" data-testid="traceRerun.start" disabled={problem !== null} onClick={start}>
            Start rerun
          </button>
        </>
      }
    >
      <div className="trace-rerun-endpoint">
        <label className="field-label" htmlFor="trace-rerun-profile">Endpoint profile</label>
        <select id="trace-rerun-profile" className="input" data-testid="traceRerun.profile" value={profile?.id ?? ''} onChange={(e) => pickProfile(e.target.value)}>
          {profiles.map((p) => (
            <option key={p.id} value={p.id}>{profileLabel(p)}</option>
          ))}
        </select>
        <label className="field-label" htmlFor="trace-rerun-model">Model <span className="muted small">recorded: {recorded?.record.params.model || 'not recorded'}</span></label>
        <input id="trace-rerun-model" className="input" data-testid="traceRerun.model" value={model} onChange={(e) => setModel(e.target.value)} />
      </div>
      {template && (
        <div className="fork-modes" role="radiogroup" aria-label="What to edit">
          <label className="checkbox">
            <input type="radio" name="trace-rerun-mode" data-testid="traceRerun.mode.template" checked={mode === 'template'} disabled={!templatePlaceable} onChange={() => setMode('template')} />
            Edit its prompt template{template.version ? ` (${template.version})` : ''}; the variables are rendered into it again
          </label>
          <label className="checkbox">
            <input type="radio" name="trace-rerun-mode" data-testid="traceRerun.mode.messages" checked={mode === 'messages'} onChange={() => setMode('messages')} />
            Edit the messages as they were sent
          </label>
        </div>
      )}
      {mode === 'template' && template ? (
        <>
          <div className="trace-rerun-field">
            <label className="field-label" htmlFor="trace-rerun-template">Template <span className="muted small">as the instrumentation recorded it</span></label>
            <textarea id="trace-rerun-template" className="input" data-testid="traceRerun.template" rows={4} value={templateText} onChange={(e) => setTemplateText(e.target.value)} />
          </div>
          {Object.entries(variables).map(([key, value]) => (
            <div key={key} className="trace-rerun-field">
              <label className="field-label" htmlFor={`trace-rerun-var-${key}`}>{`{{${key}}}`}</label>
              <textarea id={`trace-rerun-var-${key}`} className="input" data-testid={`traceRerun.variable.${key}`} rows={2} value={value} onChange={(e) => setVariables({ ...variables, [key]: e.target.value })} />
            </div>
          ))}
        </>
      ) : (
        messages.map((m, i) => (
          <div key={i} className="trace-rerun-field">
            <label className="field-label" htmlFor={`trace-rerun-message-${i}`}>Message {i + 1}: {m.role}</label>
            <textarea
              id={`trace-rerun-message-${i}`}
              className="input"
              data-testid={`traceRerun.message.${i}`}
              rows={Math.min(8, Math.max(2, Math.ceil(m.content.length / 90)))}
              value={m.content}
              onChange={(e) => setMessages(messages.map((x, j) => (j === i ? { ...x, content: e.target.value } : x)))}
            />
          </div>
        ))
      )}
      {!templatePlaceable && template && (
        <p className="muted small trace-rerun-note">{(applyTemplateEdit(recordedMessages, template, template) as { error: string }).error}.</p>
      )}
      <div className="fork-plan" data-testid="traceRerun.plan">
        <div className="field-label">Plan</div>
        {plan.ok ? (
          <ul className="plain-list">
            {plan.steps.map((s) => (
              <li key={s.stepId} data-testid={`traceRerun.plan.${s.stepId}`}>
                <span className={s.action === 'rerun' ? 'plan-tag is-rerun' : 'plan-tag is-reused'}>{TAG[s.action]}</span> {name(s.stepId)}{' '}
                <span className="muted small">
                  {s.action === 'reused' ? '— recorded output, not called again'
                    : s.action === 'kept' ? `— ${s.reason}`
                      : s.stepId === stepId ? '— sent again with your edit'
                        : `— reads ${[...new Set(s.reads.map((r) => name(r.producer)))].join(', ')} (its output is verbatim in this call’s input), sent again with the new output there`}
                </span>
                {s.action === 'rerun' && profile && <PlannedFidelity record={calls.find((c) => c.stepId === s.stepId)?.record} profile={profile} stepId={s.stepId} />}
              </li>
            ))}
          </ul>
        ) : (
          <p className="field-error">{plan.message}</p>
        )}
        {plan.ok && <p className="muted small trace-rerun-note">Read from the trace; each rerun call in the replay says what its endpoint’s provider actually sent.</p>}
      </div>
    </Dialog>
  );
}

/** What the rerun of one planned call sends of its recorded request, read from the trace before anything is sent. */
function PlannedFidelity({ record, profile, stepId }: { record: AttemptRecord | undefined; profile: EndpointProfile; stepId: string }) {
  if (!record) return null;
  return <RerunFidelityLine fidelity={rerunRequestOf(record, profile).fidelity} planned testId={`traceRerun.request.${stepId}`} />;
}
