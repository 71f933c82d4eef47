/**
 * Who a key belongs to. The canvas's keys (Space to pan, Delete, arrows, V/H/F, ? and the
 * clipboard) act only when no text box, select, editor or dialog has the key: typing a space in
 * Monaco (whose focus is a `div.native-edit-context`, neither a textarea nor contenteditable)
 * must type a space. React Flow's own key handling knows only inputs, textareas, contenteditable
 * and `.nokey`, so the canvas turns its Space and Delete off and the designer handles them here.
 */
const OWN_KEYS = [
  'input', 'textarea', 'select', '[contenteditable]:not([contenteditable="false"])',
  '.monaco-editor', '.native-edit-context', 'dialog', '[role="dialog"]', '[role="menu"]', '[role="listbox"]', '[role="separator"]', '.nokey',
].join(', ');

/** The element that keeps its own keys (a text box, select, editor, dialog), if the key came from one. */
export function keyOwner(target: EventTarget | null): Element | null {
  // Composed path: a key from inside a shadow root reports the host as its target.
  const el = target instanceof Element ? target : null;
  return el?.closest(OWN_KEYS) ?? null;
}

/**
 * Whether a modal dialog is open, or a view stands in front of the designer (Evaluate): then no
 * key reaches the canvas, wherever the focus is (an undo there would change a chain unseen).
 */
export function modalOpen(doc: Document = document): boolean {
  return !!doc.querySelector('dialog[open], [data-covers-designer]');
}

/** Whether a key event is the canvas's to act on. */
export function canvasOwnsKey(event: KeyboardEvent): boolean {
  const target = event.composedPath?.()[0] ?? event.target;
  return !event.isComposing && !keyOwner(target) && !modalOpen();
}
