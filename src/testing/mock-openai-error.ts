/** OpenAI's error body: `{error: {message, type, param, code}}` (openapi.json ErrorResponse). */

type ErrorFields = { message: string; type: string; param: string | null; code: string | null };

export function openAIError(message: string, param: string | null = null, code: string | null = null, type = 'invalid_request_error'): { error: ErrorFields } {
  return { error: { message, type, param, code } };
}
