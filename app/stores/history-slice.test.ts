import { beforeEach, describe, expect, it, vi } from 'vitest';
import { copySteps, pasteSteps } from '../../src/chain/clipboard.ts';
import { twoStepChain } from '../../src/testing/chain-fixtures.ts';
import { useEditorStore } from './editor-store.ts';

const s = () => useEditorStore.getState();

describe('editor history', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    s().openChain(twoStepChain());
  });

  it('keeps the open chain as the present and undoes every kind of edit', () => {
    const opened = s().chain;
    expect(s().history?.present).toBe(opened);
    s().addStep('model', { x: 0, y: 300 });
    s().moveStep('extract', { x: 50, y: 50 });
    expect(s().history?.past).toHaveLength(2);
    s().undo();
    expect(s().chain?.steps.find((x) => x.id === 'extract')?.position).toEqual({ x: 0, y: 0 });
    s().undo();
    expect(s().chain).toBe(opened);
    expect(s().selectedStepId).toBeNull();
    s().redo();
    expect(s().chain?.steps).toHaveLength(4);
    expect(s().history?.present).toBe(s().chain);
  });

  it('merges typing into one field, but not across fields or pauses', () => {
    const opened = s().chain;
    for (const text of ['H', 'He', 'Hel']) s().updateStepConfig('extract', 'prompt', text);
    s().renameStep('extract', 'E');
    vi.advanceTimersByTime(1500);
    s().renameStep('extract', 'Ex');
    expect(s().history?.past).toHaveLength(3);
    s().undo();
    expect(s().chain?.steps[0]?.name).toBe('E');
    s().undo();
    s().undo();
    expect(s().chain).toBe(opened);
  });

  it('makes a transaction (multi-node drag) and a paste one undo step each', () => {
    s().transact(() => {
      s().moveStep('extract', { x: 1, y: 1 });
      s().moveStep('answer', { x: 2, y: 2 });
    });
    const pasted = s().applyPaste(pasteSteps(s().chain!, copySteps(s().chain!, ['extract', 'answer']), { x: 40, y: 40 }));
    expect(pasted).toEqual(['extract_1', 'answer_1']);
    expect(s().selectedStepIds).toEqual(pasted);
    expect(s().history?.past).toHaveLength(2);
    s().undo();
    expect(s().selectedStepIds).toEqual([]);
    s().undo();
    expect(s().chain?.steps[0]?.position).toEqual({ x: 0, y: 0 });
  });

  it('starts a new history for another chain and records setState from outside', () => {
    s().renameStep('extract', 'X');
    s().openChain({ ...twoStepChain(), id: 'other' });
    expect(s().history?.past).toHaveLength(0);
    useEditorStore.setState({ chain: { ...s().chain!, name: 'Renamed' } });
    expect(s().history?.past).toHaveLength(1);
    s().undo();
    expect(s().chain?.name).toBe('Two step');
  });
});
