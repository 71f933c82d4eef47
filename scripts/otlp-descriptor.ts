import { writeFileSync } from 'node:fs';
import { descriptorFromProtoFiles, DESCRIPTOR_PATH } from '../src/collect/proto-files.ts';

/** `npx tsx scripts/otlp-descriptor.ts`: writes src/collect/proto/otlp-descriptor.json from the .proto files beside it. */
writeFileSync(DESCRIPTOR_PATH, `${JSON.stringify(descriptorFromProtoFiles(), null, 1)}\n`);
process.stdout.write(`wrote ${DESCRIPTOR_PATH}\n`);
