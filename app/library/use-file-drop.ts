import { useEffect, useState } from 'react';
import type { BroughtFile } from './flow-folder.ts';

/**
 * Files dropped anywhere on the window (a chain or a trace to import, or a flow's folder). Steps dragged from the
 * palette carry no files and pass through to the canvas. Returns whether a file is over the
 * window. The listeners load after first paint (file-drop.ts).
 */
export function useFileDrop(onFiles: (files: BroughtFile[]) => void): boolean {
  const [over, setOver] = useState(false);
  useEffect(() => {
    let stop: (() => void) | null = null;
    let live = true;
    void import('./file-drop.ts').then((m) => {
      if (live) stop = m.listenForFileDrops(onFiles, setOver);
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [onFiles]);
  return over;
}
