import { describe, expect, it } from 'vitest';
import { demoProfile, type EndpointProfile } from '../../src/providers/index.ts';
import { twoStepChain } from '../../src/testing/index.ts';
import { updateStepConfig } from '../../src/chain/index.ts';
import { stepProfiles } from './step-endpoints.ts';

const local: EndpointProfile = { ...demoProfile, id: 'p-local', name: 'Local' };

describe('endpoint profiles named by steps', () => {
  it('none named: nothing extra', () => {
    expect(stepProfiles(twoStepChain(), [local])).toEqual({ profiles: [] });
  });

  it('resolves names to this device\'s profiles, once each', () => {
    let chain = updateStepConfig(twoStepChain(), 'extract', 'profile', 'Local');
    chain = updateStepConfig(chain, 'answer', 'profile', 'Local');
    expect(stepProfiles(chain, [demoProfile, local])).toEqual({ profiles: [local] });
  });

  it('a name with no profile here is an error naming the steps', () => {
    const chain = updateStepConfig(twoStepChain(), 'answer', 'profile', 'Cloud');
    const result = stepProfiles(chain, [local]);
    expect('error' in result && result.error).toContain('"Cloud" (named by answer)');
  });
});
