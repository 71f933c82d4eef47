import { useInternalNode, useStore, ViewportPortal, type ReactFlowState } from '@xyflow/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Chain } from '../../src/chain/index.ts';
import { branchChoiceProblem, branchLabelOptions, labelText, parseBranchLabel } from '../../src/chain/branch-edit.ts';
import type { BranchChoice } from '../../src/steps/index.ts';
import { canvasRegistry } from '../designer/canvas-registry.ts';
import { placeEdgePrompt, type Rect } from './prompt-placement.ts';

/** An edge drawn from a router, waiting for its label. */
export interface PendingBranch {
  source: string;
  target: string;
}

interface Option {
  id: string;
  text: string;
  choice: BranchChoice;
  /** Why it cannot be chosen (already routed), shown beside it. */
  note?: string;
  disabled?: boolean;
}

interface Props {
  chain: Chain;
  pending: PendingBranch;
  onChoose(choice: BranchChoice): void;
  onCancel(): void;
}

const selectZoom = (s: ReactFlowState) => s.transform[2];
/** The part of the canvas in view, in flow coordinates (a string, so the selector result compares by value). */
const selectView = (s: ReactFlowState) => {
  const [tx, ty, zoom] = s.transform;
  return `${-tx / zoom} ${-ty / zoom} ${s.width / zoom} ${s.height / zoom}`;
};
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const PROMPT_WIDTH = 260;
/** The canvas toolbar's strip at the top of the canvas (px), which the prompt stays below. */
const TOOLBAR_STRIP = 56;
/** The prompt's height before it is measured: caption, box, hint and a row per option. */
const promptHeight = (options: number) => 112 + 26 * options;

/** The two cards the new edge joins, in flow coordinates. */
function useEdgeEnds(pending: PendingBranch): { from: Rect; to: Rect } | null {
  const from = useInternalNode(pending.source);
  const to = useInternalNode(pending.target);
  if (!from || !to) return null;
  const rect = (n: NonNullable<typeof from>): Rect => ({ ...n.internals.positionAbsolute, width: n.measured.width ?? 0, height: n.measured.height ?? 0 });
  return { from: rect(from), to: rect(to) };
}

/**
 * The label a new branch is taken on, asked where the edge was drawn: a text box with the
 * values the upstream schema allows offered below it, then "otherwise" as a choice of its own
 * (never what an unlabelled edge silently becomes). Type, or move with the arrows; Enter
 * accepts, Esc (or leaving the box) cancels the edge.
 */
export function BranchLabelPrompt({ chain, pending, onChoose, onCancel }: Props) {
  const options = branchLabelOptions(chain, pending.source, canvasRegistry);
  const ends = useEdgeEnds(pending);
  const zoom = useStore(selectZoom);
  const [vx = 0, vy = 0, vw = 0, vh = 0] = useStore(selectView).split(' ').map(Number);
  const [text, setText] = useState('');
  const [active, setActive] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  // The mouse-up that ended the drag lands after the mount; focus once the canvas is done with it.
  useEffect(() => {
    const timer = setTimeout(() => input.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, []);
  if (!options || !ends) return null;

  const typed = text.trim().toLowerCase();
  const choices: Option[] = [
    ...options.values
      .filter((v) => !typed || labelText(v).toLowerCase().includes(typed))
      .map((v, i) => {
        const taken = options.taken.some((t) => same(t, v));
        return { id: `${listId}-v${i}`, text: labelText(v), choice: { kind: 'label', equals: v } as const, disabled: taken, note: taken ? 'has a route' : undefined };
      }),
    {
      id: `${listId}-otherwise`, text: 'otherwise', choice: { kind: 'otherwise' },
      note: options.otherwise && options.otherwise !== pending.target ? `any other label; moves it from ${options.otherwise}` : 'any other label',
    },
  ];
  // While typing, the first value that starts with the text is the one Enter takes.
  const firstMatch = typed ? choices.findIndex((c) => !c.disabled && c.text.toLowerCase().startsWith(typed)) : -1;
  const highlighted = active ?? (firstMatch >= 0 ? firstMatch : null);

  const choose = (choice: BranchChoice) => {
    const why = branchChoiceProblem(options, choice);
    if (why) setProblem(why);
    else onChoose(choice);
  };
  const move = (by: number) => {
    const enabled = choices.map((c, i) => (c.disabled ? -1 : i)).filter((i) => i >= 0);
    const from = enabled.indexOf(highlighted ?? -1);
    const next = from < 0 ? (by > 0 ? enabled[0] : enabled[enabled.length - 1]) : enabled[(from + by + enabled.length) % enabled.length];
    setActive(next ?? null);
  };
  // Beside the edge, hiding as little of the two cards as it can; the same size at any zoom.
  const at = placeEdgePrompt(ends.from, ends.to, { width: PROMPT_WIDTH / zoom, height: promptHeight(choices.length) / zoom }, 16 / zoom, { x: vx, y: vy + TOOLBAR_STRIP / zoom, width: vw, height: vh - TOOLBAR_STRIP / zoom });
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    // The designer's own keys (Delete, Escape, F) never see what is typed here.
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      onCancel();
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const picked = highlighted === null ? undefined : choices[highlighted];
      choose(picked ? picked.choice : { kind: 'label', equals: parseBranchLabel(text, options) });
    }
  };

  return (
    <ViewportPortal>
      <div
        className="branch-prompt nodrag nopan nowheel"
        data-testid="branch.prompt"
        role="group"
        aria-label={`Label for the branch ${pending.source} → ${pending.target}`}
        style={{ width: PROMPT_WIDTH, transform: `translate(${at.x}px, ${at.y}px) scale(${1 / zoom})` }}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget)) onCancel();
        }}
      >
        <label className="branch-prompt-caption" htmlFor={`${listId}-input`}>
          Go to <code>{pending.target}</code> when {options.readsFrom ? <code>{options.readsFrom}</code> : 'the label'} is
        </label>
        <input
          ref={input}
          id={`${listId}-input`}
          className="input mono"
          data-testid="branch.label"
          role="combobox"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={highlighted === null ? undefined : choices[highlighted]?.id}
          aria-invalid={problem ? true : undefined}
          placeholder={options.values.length ? 'type or choose a label' : 'type the label'}
          autoComplete="off"
          spellCheck={false}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(null);
            setProblem(null);
          }}
          onKeyDown={onKeyDown}
        />
        <ul className="branch-prompt-options" id={listId} role="listbox" aria-label="Labels">
          {choices.map((c, i) => (
            <li
              key={c.id}
              id={c.id}
              role="option"
              aria-selected={i === highlighted}
              aria-disabled={c.disabled || undefined}
              data-testid={c.choice.kind === 'otherwise' ? 'branch.option.otherwise' : `branch.option.${c.text}`}
              className={['branch-prompt-option', c.choice.kind === 'otherwise' ? 'is-otherwise' : '', i === highlighted ? 'is-active' : ''].filter(Boolean).join(' ')}
              // Keep the focus in the text box, so a click chooses rather than cancels.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => !c.disabled && choose(c.choice)}
            >
              <span className={c.choice.kind === 'otherwise' ? '' : 'mono'}>{c.text}</span>
              {c.note && <span className="muted small">{c.note}</span>}
            </li>
          ))}
        </ul>
        {problem ? (
          <p className="branch-prompt-problem" role="alert" data-testid="branch.problem">{problem}</p>
        ) : (
          <p className="branch-prompt-hint muted small">{options.values.length ? '' : 'The schema lists no labels here. '}Enter accepts · Esc cancels the edge</p>
        )}
      </div>
    </ViewportPortal>
  );
}
