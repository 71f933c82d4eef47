import type { FinishReason, ModelProvider, ModelRequest } from '../providers/types.ts';

/**
 * An in-process fake model for unit tests of steps and the engine: replies come from a
 * script, requests are recorded. Tests of the real HTTP path use the mock model server.
 */
export type ScriptedReply = string | object | { text: string; finishReason?: FinishReason } | ((request: ModelRequest) => string);

export function createScriptedProvider(replies: ScriptedReply[]): ModelProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    kind: 'scripted',
    requests,
    async call(request) {
      requests.push(structuredClone(request));
      const reply = replies.shift();
      if (reply === undefined) throw new Error('the script has no more replies');
      let text: string;
      let finishReason: FinishReason = 'stop';
      if (typeof reply === 'function') text = reply(request);
      else if (typeof reply === 'string') text = reply;
      else if ('text' in reply && typeof (reply as { text: unknown }).text === 'string') {
        text = (reply as { text: string }).text;
        finishReason = (reply as { finishReason?: FinishReason }).finishReason ?? 'stop';
      } else text = JSON.stringify(reply);
      return {
        text, finishReason, rawFinishReason: finishReason, usage: { inputTokens: 10, outputTokens: 5 },
        requestBody: { model: request.model, messages: request.messages }, rawResponse: { text }, status: 200, model: request.model,
      };
    },
  };
}
