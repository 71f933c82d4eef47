/**
 * Saves a blob as a file through a temporary link (the browser's download, no popup). The
 * object URL is revoked after a while, not at once: some browsers start reading it late.
 */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
