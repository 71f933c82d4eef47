/**
 * A canary for "0 code executed": a function on globalThis that counts its calls, payloads
 * that call it if anything ever evaluates them as script (JS, template literal, HTML handler),
 * and a check for prototype pollution from `__proto__` keys in parsed data.
 */
export const CANARY_NAME = '__seamscopeBatteryCanary';

export const CANARY_PAYLOADS: readonly string[] = [
  `${CANARY_NAME}()`,
  `\${${CANARY_NAME}()}`,
  `"); ${CANARY_NAME}(); ("`,
  `'; ${CANARY_NAME}(); //`,
  `<img src=x onerror="${CANARY_NAME}()">`,
  `<script>${CANARY_NAME}()</script>`,
  `javascript:${CANARY_NAME}()`,
  `{{constructor.constructor('${CANARY_NAME}()')()}}`,
];

/** JSON text whose parse is safe but whose naive merge would pollute Object.prototype. */
export const POLLUTING_JSON = `{"__proto__": {"batteryPolluted": "${CANARY_NAME}"}, "constructor": {"prototype": {"batteryPolluted": true}}}`;

export interface Canary {
  /** Canary calls plus one if Object.prototype was polluted. */
  executions(): number;
  remove(): void;
}

export function plantCanary(): Canary {
  let calls = 0;
  (globalThis as Record<string, unknown>)[CANARY_NAME] = () => void calls++;
  return {
    executions: () => calls + ('batteryPolluted' in Object.prototype ? 1 : 0),
    remove: () => {
      delete (globalThis as Record<string, unknown>)[CANARY_NAME];
      delete (Object.prototype as Record<string, unknown>).batteryPolluted;
    },
  };
}
