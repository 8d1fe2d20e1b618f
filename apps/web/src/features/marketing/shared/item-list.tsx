/** One item of a public page's lists and cards: a short title and a sentence. */
export interface TitledText {
  title: string;
  text: string;
}

interface TitledListProps {
  items: readonly TitledText[];
  className: string;
  /** Numbered steps (`ol`) rather than a plain list. */
  ordered?: boolean;
  /** Title and text on one line (`strong` and `span`) rather than a heading over a paragraph. */
  inline?: boolean;
}

/** A list of titled items: the steps of how we work, the services of a card. */
export function TitledList({ items, className, ordered = false, inline = false }: TitledListProps) {
  const List = ordered ? 'ol' : 'ul';
  return (
    <List className={className}>
      {items.map((item) =>
        inline ? (
          <li key={item.title}>
            <strong>{item.title}</strong>
            <span>{item.text}</span>
          </li>
        ) : (
          <li key={item.title}>
            <h3>{item.title}</h3>
            <p>{item.text}</p>
          </li>
        ),
      )}
    </List>
  );
}

/** A ticked list of short claims (the `check-list` style). */
export function CheckList({ items, className }: { items: readonly string[]; className?: string }) {
  return (
    <ul className={className ? `check-list ${className}` : 'check-list'}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}
