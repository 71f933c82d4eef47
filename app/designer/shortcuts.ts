/** The designer's keyboard shortcuts, as the help overlay lists them (`mod` is Ctrl, or ⌘ on a Mac). */
export interface Shortcut {
  keys: string[];
  does: string;
}

export const shortcuts: readonly Shortcut[] = [
  { keys: ['mod', 'Z'], does: 'Undo (canvas and panel edits)' },
  { keys: ['mod', 'Shift', 'Z'], does: 'Redo (also Ctrl+Y or ⌘Y)' },
  { keys: ['mod', 'C'], does: 'Copy the selected steps' },
  { keys: ['mod', 'X'], does: 'Cut the selected steps' },
  { keys: ['mod', 'V'], does: 'Paste steps (into this or another chain)' },
  { keys: ['mod', 'D'], does: 'Duplicate the selected steps' },
  { keys: ['mod', 'A'], does: 'Select every step' },
  { keys: ['Delete'], does: 'Delete the selected steps and edges (also Backspace)' },
  { keys: ['Shift', 'click'], does: 'Add a step to the selection' },
  { keys: ['Shift', 'drag'], does: 'Select with a box' },
  { keys: ['V'], does: 'Select tool: drag draws a box, scroll pans (touchpads)' },
  { keys: ['H'], does: 'Pan tool: drag pans the view' },
  { keys: ['Tab'], does: 'Move focus between cards (and every other control)' },
  { keys: ['Enter'], does: 'Select the focused card; the step panel opens' },
  { keys: ['←', '↑', '→', '↓'], does: 'Move the selected cards (with Shift: four times as far)' },
  { keys: ['Shift', 'L'], does: 'Auto layout (one undo step)' },
  { keys: ['F'], does: 'Fit the chain in view' },
  { keys: ['Esc'], does: 'Clear the selection, close this help' },
  { keys: ['?'], does: 'Show or hide this help' },
];

export const isMac = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

export function keyLabel(key: string): string {
  if (key === 'mod') return isMac() ? '⌘' : 'Ctrl';
  return key;
}
