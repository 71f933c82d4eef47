/** A step as people read it: its name, then its id when the two differ ("Classify (model_2)"). */
export function stepLabel(id: string, name: string | undefined): string {
  return name && name !== id ? `${name} (${id})` : id;
}

/** The replay header's label for a boundary: producer → consumer, by name with ids second. */
export function boundaryLabel(producer: string, consumer: string, name: (id: string) => string | undefined): string {
  return `${stepLabel(producer, name(producer))} → ${stepLabel(consumer, name(consumer))}`;
}
