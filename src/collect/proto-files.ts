import { fileURLToPath } from 'node:url';
import path from 'node:path';
import protobuf from 'protobufjs';

/**
 * The OTLP .proto files under `proto/` read by protobufjs, as the JSON descriptor the collector
 * loads (`proto/otlp-descriptor.json`). The descriptor is generated rather than read from the
 * .proto files at start because the CLI is one bundle with no files beside it; the test in
 * otlp-proto.test.ts regenerates it from the .proto files and fails if the two differ
 * (`npx tsx scripts/otlp-descriptor.ts` writes it again).
 */
export const PROTO_DIR = fileURLToPath(new URL('./proto/', import.meta.url));
export const DESCRIPTOR_PATH = path.join(PROTO_DIR, 'otlp-descriptor.json');

const ENTRY_FILES = [
  'opentelemetry/proto/collector/trace/v1/trace_service.proto',
  'opentelemetry/proto/collector/logs/v1/logs_service.proto',
  'google/rpc/status.proto',
];

/** The descriptor of every message the collector reads or writes, from the .proto files. */
export function descriptorFromProtoFiles(): protobuf.INamespace {
  const root = new protobuf.Root();
  // google/protobuf/*.proto are protobufjs's own common types; everything else is ours.
  root.resolvePath = (_origin, target) => (target.startsWith('google/protobuf/') ? target : path.join(PROTO_DIR, target));
  root.loadSync(ENTRY_FILES);
  root.resolveAll();
  return root.toJSON();
}
