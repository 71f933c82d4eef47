/** The runtime exported TypeScript programs ship, built for the app by scripts/vite-runtime-plugin.ts. */
declare module 'virtual:seamscope-runtime' {
  /** File name inside `seamscope-runtime/` → contents (`index.js`, `*.d.ts`). */
  export const files: Record<string, string>;
}
