import { useEffect, useState } from 'react';

/**
 * Files dropped anywhere on the window (a chain or a trace to import). Steps dragged from the
 * palette carry no files and pass through to the canvas. Returns whether a file is over the
 * window. The listeners load after first paint (file-drop.ts).
 */
export function useFileDrop(onFile: (file: File) => void): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let stop: (() => void) | null = null;
    let live = true;
    void import('./file-drop.ts').then((m) => {
      if (live) stop = m.listenForFileDrops(onFile, setOver);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [onFile]);
  return over;
}
