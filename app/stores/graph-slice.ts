import type { StateCreator } from 'zustand';
import * as edit from '../../src/chain/index.ts';
import { stepRegistry } from '../../src/steps/index.ts';
import { createHistory } from '../../src/chain/index.ts';
import type { Chain, ChainInput, RunBudget } from '../../src/chain/index.ts';
import type { EditorState } from './editor-store.ts';
import { withChain } from './history-slice.ts';

/**
 * The open chain's edits. The chain itself is `history.present` (selectChain), so every action
 * writes through `withChain`, which advances the history; each delegates the edit to the pure
 * functions of src/chain/edit.ts. Nothing here touches storage (autosave subscribes from outside).
 */
export interface GraphSlice {
  openChain(chain: Chain | null): void;
  /** Makes `chain` the open chain as an undoable edit (another tab's save, a restored revision). */
  replaceChain(chain: Chain): void;
  setChainName(name: string): void;
  setChainDescription(description: string): void;
  /** Sets or clears (undefined) one limit of the chain's run budget. */
  setBudgetLimit(key: keyof RunBudget, value: number | undefined): void;
  addStep(kind: string, position: edit.XY): string | null;
  removeSteps(stepIds: readonly string[]): void;
  /**
   * Takes the result of src/chain/clipboard.ts pasteSteps (the chain with the pasted steps, ids
   * rewired) and selects the pasted steps; one undo step. The paste itself is computed by the
   * caller, so the clipboard module loads with the commands that use it, not at start-up.
   */
  applyPaste(result: { chain: Chain; pasted: string[] }): string[];
  moveStep(stepId: string, position: edit.XY): void;
  /** Moves many steps at once (auto layout): one new chain, so one undo step. */
  /** Moves steps, and input nodes by name, as one edit (one undo step). */
  moveSteps(positions: ReadonlyMap<string, edit.XY>, inputPositions?: ReadonlyMap<string, edit.XY>): void;
  renameStep(stepId: string, name: string): void;
  /** Gives a step a new id (refs, branches and auto-named bindings follow); the selection follows too. */
  renameStepId(from: string, to: string): void;
  updateStepConfig(stepId: string, keyPath: string, value: unknown): void;
  connect(sourceId: string, targetId: string): void;
  /**
   * Applies a pure edit made outside the store (one undo step; an unchanged chain is not set).
   * The canvas draws labelled branches with it, so the branch-label code (src/chain/branch-edit.ts)
   * loads with the canvas chunk instead of with the store on first paint.
   */
  applyEdit(fn: (chain: Chain) => Chain): void;
  connectInput(inputName: string, targetId: string): void;
  setBinding(stepId: string, name: string, ref: string): void;
  renameBinding(stepId: string, from: string, to: string): void;
  disconnect(targetId: string, bindingName: string): void;
  removeBranch(sourceId: string, targetId: string): void;
  /** Adds an input, at `position` on the canvas when given (else beside the steps that read it). */
  addInput(position?: edit.XY): string | null;
  removeInput(name: string): void;
  updateInput(name: string, patch: Partial<ChainInput>): void;
}

export const createGraphSlice: StateCreator<EditorState, [], [], GraphSlice> = (set, get) => {
  /** Applies a pure edit to the open chain; unchanged chains are not set (no re-render, no save). */
  const apply = (fn: (chain: Chain) => Chain) =>
    set((state) => {
      const chain = state.history?.present;
      if (!chain) return {};
      const next = fn(chain);
      return next === chain ? {} : withChain(state, next);
    });
  const open = () => get().history?.present ?? null;

  return {
    // Opening a chain starts its undo history afresh (even when it is the same chain again).
    openChain: (chain) => set({ history: chain ? createHistory(chain) : null, selectedStepId: null, selectedStepIds: [], selectedInput: null, selectedEdgeIds: [] }),
    replaceChain: (chain) => set((state) => withChain(state, chain)),
    setChainName: (name) => apply((c) => (c.name === name ? c : { ...c, name })),
    setChainDescription: (description) => apply((c) => (c.description === description ? c : { ...c, description: description || undefined })),
    setBudgetLimit: (key, value) => apply((c) => edit.setBudgetLimit(c, key, value)),
    addStep: (kind, position) => {
      const chain = open();
      if (!chain) return null;
      const result = edit.addStep(chain, kind, position, stepRegistry);
      set((state) => ({ ...withChain(state, result.chain), selectedStepId: result.stepId, selectedStepIds: [result.stepId], selectedInput: null }));
      return result.stepId;
    },
    removeSteps: (stepIds) =>
      set((state) => {
        const open = state.history?.present;
        if (!open) return {};
        const chain = stepIds.reduce((c, id) => edit.removeStep(c, id, stepRegistry), open);
        const selectedStepId = state.selectedStepId && stepIds.includes(state.selectedStepId) ? null : state.selectedStepId;
        return { ...withChain(state, chain), selectedStepId, selectedStepIds: state.selectedStepIds.filter((id) => !stepIds.includes(id)) };
      }),
    applyPaste: (result) => {
      const chain = open();
      if (!chain || result.chain.id !== chain.id || result.pasted.length === 0) return [];
      set((state) => ({ ...withChain(state, result.chain), selectedStepIds: result.pasted, selectedStepId: result.pasted.length === 1 ? (result.pasted[0] ?? null) : null, selectedInput: null, selectedEdgeIds: [] }));
      return result.pasted;
    },
    moveStep: (stepId, position) => apply((c) => edit.moveStep(c, stepId, position)),
    moveSteps: (positions, inputPositions) => apply((c) => edit.moveInputs(edit.moveSteps(c, positions), inputPositions ?? new Map())),
    renameStep: (stepId, name) => apply((c) => edit.renameStep(c, stepId, name)),
    renameStepId: (from, to) =>
      set((state) => {
        const open = state.history?.present;
        if (!open) return {};
        const chain = edit.renameStepId(open, from, to, stepRegistry);
        if (chain === open) return {};
        const follow = (id: string) => (id === from ? to : id);
        return { ...withChain(state, chain), selectedStepId: state.selectedStepId && follow(state.selectedStepId), selectedStepIds: state.selectedStepIds.map(follow), selectedEdgeIds: [] };
      }),
    updateStepConfig: (stepId, keyPath, value) => apply((c) => edit.updateStepConfig(c, stepId, keyPath, value)),
    connect: (sourceId, targetId) => apply((c) => edit.connect(c, sourceId, targetId, undefined, stepRegistry)),
    applyEdit: (fn) => apply(fn),
    connectInput: (inputName, targetId) => apply((c) => edit.connectInput(c, inputName, targetId, undefined, stepRegistry)),
    setBinding: (stepId, name, ref) => apply((c) => edit.setBinding(c, stepId, name, ref, stepRegistry)),
    renameBinding: (stepId, from, to) => apply((c) => edit.renameBinding(c, stepId, from, to, stepRegistry)),
    disconnect: (targetId, bindingName) => apply((c) => edit.disconnect(c, targetId, bindingName, stepRegistry)),
    removeBranch: (sourceId, targetId) => apply((c) => edit.removeBranch(c, sourceId, targetId, stepRegistry)),
    addInput: (position) => {
      const chain = open();
      if (!chain) return null;
      const result = edit.addInput(chain, undefined, position ? { position } : {});
      set((state) => ({ ...withChain(state, result.chain), selectedInput: result.name, selectedStepId: null, selectedStepIds: [] }));
      return result.name;
    },
    removeInput: (name) =>
      set((state) => {
        const open = state.history?.present;
        if (!open) return {};
        return { ...withChain(state, edit.removeInput(open, name, stepRegistry)), selectedInput: state.selectedInput === name ? null : state.selectedInput };
      }),
    updateInput: (name, patch) =>
      set((state) => {
        const open = state.history?.present;
        if (!open) return {};
        const chain = edit.updateInput(open, name, patch, stepRegistry);
        if (chain === open) return {};
        const renamed = patch.name !== undefined && state.selectedInput === name;
        return renamed ? { ...withChain(state, chain), selectedInput: patch.name } : withChain(state, chain);
      }),
  };
};
