import { propertyOf } from '../../src/files/index.ts';
import { bindingsKey } from '../../src/chain/index.ts';
import type { Chain, StepDef } from '../../src/chain/index.ts';
import { stepRegistry, type FieldSpec } from '../../src/steps/index.ts';
import { useEditorStore } from '../stores/editor-store.ts';
import { asRecord, readConfig } from './field-utils.ts';
import { BindingsField } from './fields/BindingsField.tsx';
import { JsonField } from './fields/JsonField.tsx';
import { NumberField } from './fields/NumberField.tsx';
import { OnFailField } from './fields/OnFailField.tsx';
import { ProfileField } from './fields/ProfileField.tsx';
import { RoutesField } from './fields/RoutesField.tsx';
import { StepRefField } from './fields/StepRefField.tsx';
import { SelectField } from './fields/SelectField.tsx';
import { SchemaTools } from './fields/SchemaTools.tsx';
import { TemplateField } from './fields/TemplateField.tsx';
import { templateSuggestions } from '../designer/template-suggest.ts';
import { TextField } from './fields/TextField.tsx';

interface Props {
  chain: Chain;
  step: StepDef;
  field: FieldSpec;
}

function assertNever(value: never): never {
  throw new Error(`Unhandled field kind ${JSON.stringify(value)}`);
}

/** One registry field. The switch is exhaustive: a new field kind fails the type check here. */
export function FieldEditor({ chain, step, field }: Props) {
  const value = readConfig(step, field.key);
  const id = `field-${step.id}-${field.key}`;
  const testId = `inspector.field.${field.key}`;
  const set = (next: unknown) => useEditorStore.getState().updateStepConfig(step.id, field.key, next);
  const otherSteps = chain.steps.map((s) => s.id).filter((s) => s !== step.id);

  const control = (() => {
    switch (field.kind) {
      case 'text': {
        const defaults = stepRegistry.get(step.kind)?.defaults();
        return <TextField id={id} testId={testId} value={value} placeholder={field.placeholder} nullable={propertyOf(defaults, field.key) === null} onChange={set} />;
      }
      case 'textarea': {
        const key = field.template ? bindingsKey(step, stepRegistry) : null;
        const bound = key ? asRecord(readConfig(step, key)) : null;
        return (
          <TemplateField
            id={id}
            testId={testId}
            value={value}
            rows={field.rows}
            bindings={field.template ? Object.keys(bound ?? {}) : null}
            suggestions={field.template ? () => templateSuggestions(chain, step, bound ?? {}) : undefined}
            onChange={set}
            onPick={(text, s) => {
              // The new binding and the placeholder that reads it are one undo step.
              const store = useEditorStore.getState();
              store.transact(() => {
                if (s.addBinding) store.setBinding(step.id, s.addBinding.name, s.addBinding.ref);
                set(text);
              });
            }}
          />
        );
      }
      case 'number':
        return <NumberField id={id} testId={testId} value={value} min={field.min} max={field.max} step={field.step} onChange={set} />;
      case 'select':
        return <SelectField id={id} testId={testId} value={value} options={field.options} onChange={set} />;
      case 'bindings':
        return <BindingsField testId={testId} chain={chain} stepId={step.id} bindings={asRecord(value)} />;
      case 'json': {
        const editor = <JsonField testId={testId} modelPath={`${step.id}/${field.key}`} value={value} schemaHint={field.schemaHint} onCommit={set} stepId={step.id} fieldLabel={field.label} />;
        if (field.schemaHint !== 'jsonSchema') return editor;
        const key = bindingsKey(step, stepRegistry);
        return (
          <>
            {editor}
            <SchemaTools chain={chain} step={step} keyPath={field.key} schema={value} bindings={key ? asRecord(readConfig(step, key)) : {}} />
          </>
        );
      }
      case 'onFail':
        return <OnFailField id={id} testId={testId} value={value} stepIds={otherSteps} onChange={set} />;
      case 'profile':
        return <ProfileField id={id} testId={testId} value={value} onChange={set} />;
      case 'routes':
        return <RoutesField id={id} testId={testId} value={value} stepIds={otherSteps} onChange={set} />;
      case 'stepRef':
        return <StepRefField id={id} testId={testId} value={value} stepIds={otherSteps} emptyLabel={field.emptyLabel} onChange={set} />;
      default:
        return assertNever(field);
    }
  })();

  return (
    <div className="field">
      <label className="field-label" htmlFor={field.kind === 'bindings' || field.kind === 'json' || field.kind === 'routes' ? undefined : id}>
        {field.label}
      </label>
      {control}
    </div>
  );
}
