import { MAX_FOLDER_FILES, type BroughtFile } from './flow-folder.ts';

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

const fileOf = (entry: FileSystemFileEntry) => new Promise<File>((resolve, reject) => entry.file(resolve, reject));
const entriesOf = (reader: FileSystemDirectoryReader) => new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));

/**
 * The files of dropped folders, with their paths from the dropped folder down (as a folder pick
 * gives them), breadth first and stopping one past the folder limit, so the import can refuse
 * an oversized folder by its count without walking all of it.
 */
async function filesUnder(roots: FileSystemEntry[]): Promise<BroughtFile[]> {
  const found: BroughtFile[] = [];
  const queue = [...roots];
  while (queue.length > 0 && found.length <= MAX_FOLDER_FILES) {
    const entry = queue.shift() as FileSystemEntry;
    const path = entry.fullPath.replace(/^\//, '');
    if (entry.isFile) found.push({ path, file: await fileOf(entry as FileSystemFileEntry) });
    else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      // readEntries answers in batches until it answers none.
      for (let batch = await entriesOf(reader); batch.length > 0; batch = await entriesOf(reader)) queue.push(...batch);
    }
  }
  return found;
}

/** Window listeners for dropped files and folders; returns the function that removes them. */
export function listenForFileDrops(onFiles: (files: BroughtFile[]) => void, setOver: (over: boolean) => void): () => void {
  let depth = 0;
  const enter = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    depth++;
    setOver(true);
  };
  const leave = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) setOver(false);
  };
  const over = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  };
  const drop = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    setOver(false);
    // Entries are read while the event lasts; their files can be read after it.
    const items = Array.from(e.dataTransfer?.items ?? []).filter((item) => item.kind === 'file');
    const entries = items.map((item) => item.webkitGetAsEntry?.() ?? null);
    if (entries.some((entry) => entry?.isDirectory)) {
      void filesUnder(entries.filter((entry): entry is FileSystemEntry => entry !== null)).then(onFiles);
      return;
    }
    const files = Array.from(e.dataTransfer?.files ?? [], (file) => ({ path: file.name, file }));
    if (files.length > 0) onFiles(files);
  };
  window.addEventListener('dragenter', enter);
  window.addEventListener('dragleave', leave);
  window.addEventListener('dragover', over);
  window.addEventListener('drop', drop);
  return () => {
    window.removeEventListener('dragenter', enter);
    window.removeEventListener('dragleave', leave);
    window.removeEventListener('dragover', over);
    window.removeEventListener('drop', drop);
  };
}
