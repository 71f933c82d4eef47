import { beforeEach, describe, expect, it, vi } from 'vitest';
import { copySteps, pasteSteps } from '../../src/chain/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { useEditorStore } from './editor-store.ts';
import { selectChain } from './selectors.ts';
import { stepRegistry } from '../../src/steps/index.ts';

const s = () => useEditorStore.getState();
const open = () => selectChain(s());

describe('editor history', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    s().openChain(twoStepChain());
  });

  it('keeps the open chain as the present and undoes every kind of edit', () => {
    const opened = open();
    expect(s().history?.present).toBe(opened);
    expect(s()).not.toHaveProperty('chain');
    s().addStep('model', { x: 0, y: 300 });
    s().moveStep('extract', { x: 50, y: 50 });
    expect(s().history?.past).toHaveLength(2);
    s().undo();
    expect(open()?.steps.find((x) => x.id === 'extract')?.position).toEqual({ x: 0, y: 0 });
    s().undo();
    expect(open()).toBe(opened);
    expect(s().selectedStepId).toBeNull();
    s().redo();
    expect(open()?.steps).toHaveLength(4);
  });

  it('merges typing into one field, but not across fields or pauses', () => {
    const opened = open();
    for (const text of ['H', 'He', 'Hel']) s().updateStepConfig('extract', 'prompt', text);
    s().renameStep('extract', 'E');
    vi.advanceTimersByTime(1500);
    s().renameStep('extract', 'Ex');
    expect(s().history?.past).toHaveLength(3);
    s().undo();
    expect(open()?.steps[0]?.name).toBe('E');
    s().undo();
    s().undo();
    expect(open()).toBe(opened);
  });

  it('makes a transaction (multi-node drag) and a paste one undo step each', () => {
    s().transact(() => {
      s().moveStep('extract', { x: 1, y: 1 });
      s().moveStep('answer', { x: 2, y: 2 });
    });
    const pasted = s().applyPaste(pasteSteps(open()!, copySteps(open()!, ['extract', 'answer']), { x: 40, y: 40 }, stepRegistry));
    expect(pasted).toEqual(['extract_1', 'answer_1']);
    expect(s().selectedStepIds).toEqual(pasted);
    expect(s().history?.past).toHaveLength(2);
    s().undo();
    expect(s().selectedStepIds).toEqual([]);
    s().undo();
    expect(open()?.steps[0]?.position).toEqual({ x: 0, y: 0 });
  });

  it('starts a new history for another chain; a replaced chain (another tab, a revision) is one undoable edit', () => {
    s().renameStep('extract', 'X');
    s().openChain({ ...twoStepChain(), id: 'other' });
    expect(s().history?.past).toHaveLength(0);
    s().replaceChain({ ...open()!, name: 'Renamed' });
    expect(s().history?.past).toHaveLength(1);
    s().undo();
    expect(open()?.name).toBe('Two step');
  });

  it('leaves the state alone when an edit changes nothing', () => {
    const before = s().history;
    s().moveStep('extract', { x: 0, y: 0 });
    s().setChainName(open()!.name);
    expect(s().history).toBe(before);
  });
});
