/** Every keyboard shortcut (the designer's, the replay's, the pane borders'), as the help overlay lists them (`mod` is Ctrl, or ⌘ on a Mac). */
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
  { keys: ['Space', 'drag'], does: 'Pan the view, whichever tool is on' },
  { keys: ['F'], does: 'Fit: the whole chain when it is readable, else its start' },
  { keys: ['Esc'], does: 'Close this help, the compounding panel or a contract card; clear the selection' },
  { keys: ['?'], does: 'Show or hide this help' },
  { keys: ['←', '→'], does: 'Replay: previous and next boundary (a focused card takes them to move)' },
  { keys: ['Enter'], does: 'Branch label prompt: accept the label (arrows pick one, Esc cancels the edge)' },
  { keys: ['←', '→', '↑', '↓'], does: 'On a focused pane border: resize the pane (with Shift: finely)' },
  { keys: ['Home', 'End'], does: 'On a focused pane border: smallest and largest size' },
  { keys: ['Enter'], does: 'On a focused pane border: fold the pane away or bring it back' },
];

export const isMac = () => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

export function keyLabel(key: string): string {
  if (key === 'mod') return isMac() ? '⌘' : 'Ctrl';
  return key;
}
