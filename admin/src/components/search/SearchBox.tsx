import { type ReactNode, useId, useRef, useState } from 'react';
import { type Suggestion, useDebounced, useSuggestions } from './useSearch';

export interface SearchBoxProps {
  label: ReactNode;
  value: string;
  onValue: (value: string) => void;
  /** Enter with no suggestion highlighted. */
  onSubmit?: (value: string) => void;
  /** A suggestion was chosen; by default its title becomes the query. */
  onPick?: (suggestion: Suggestion) => void;
  /** Limit suggestions to these collections (e.g. the list it sits on). */
  collections?: string[];
  locale?: string;
  placeholder?: string;
  /** Keep the label for screen readers only (a toolbar search field). */
  hideLabel?: boolean;
  /** Offer title completions while typing (default true). */
  suggest?: boolean;
  name?: string;
}

/**
 * A search field with title suggestions: the WAI-ARIA combobox pattern
 * (arrow keys move through the list, Enter picks, Escape closes then
 * clears). The parent owns the text; debounce the value it searches with
 * (`useDebounced`) for search-as-you-type.
 */
export function SearchBox({
  label,
  value,
  onValue,
  onSubmit,
  onPick,
  collections,
  locale,
  placeholder,
  hideLabel = false,
  suggest = true,
  name = 'q',
}: SearchBoxProps) {
  const id = useId();
  const listId = `${id}-list`;
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const typed = useDebounced(value, 150);
  const suggestions = useSuggestions(typed, { collections, locale, enabled: suggest && open });
  const items = open && value.trim() ? (suggestions.data?.items ?? []) : [];
  const expanded = items.length > 0;

  const choose = (s: Suggestion) => {
    setOpen(false);
    setActive(-1);
    if (onPick) onPick(s);
    else {
      onValue(s.title);
      onSubmit?.(s.title);
    }
  };

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      if (items.length) setActive((i) => (i + 1) % items.length);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      if (items.length) setActive((i) => (i <= 0 ? items.length - 1 : i - 1));
    } else if (e.key === 'Enter') {
      if (expanded && active >= 0 && items[active]) {
        e.preventDefault();
        choose(items[active]);
      } else {
        setOpen(false);
        onSubmit?.(value);
      }
    } else if (e.key === 'Escape') {
      if (expanded) {
        e.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (value) {
        e.preventDefault();
        onValue('');
      }
    }
  }

  return (
    <div className="searchbox">
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : 'field__label'}>
        {label}
      </label>
      <div className="searchbox__control">
        <span className="searchbox__icon" aria-hidden="true" />
        <input
          ref={input}
          id={id}
          name={name}
          type="search"
          className="input searchbox__input"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${id}-opt-${active}` : undefined}
          autoComplete="off"
          spellCheck={false}
          placeholder={placeholder}
          value={value}
          onChange={(e) => {
            onValue(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
          onFocus={() => setOpen(true)}
        />
        {value ? (
          <button
            type="button"
            className="searchbox__clear"
            aria-label="Clear search"
            onClick={() => {
              onValue('');
              input.current?.focus();
            }}
          >
            ×
          </button>
        ) : null}
      </div>
      <div id={listId} role="listbox" className="searchbox__list" hidden={!expanded} aria-label="Suggestions">
        {items.map((s, i) => (
          // Picked with the pointer, or with Enter in the input (aria-activedescendant): options never take focus.
          // biome-ignore lint/a11y/useKeyWithClickEvents: keyboard selection happens in the combobox input
          <div
            key={`${s.collection}/${s.id}`}
            id={`${id}-opt-${i}`}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            className="searchbox__option"
            onPointerDown={(e) => e.preventDefault()}
            onClick={() => choose(s)}
          >
            <span className="searchbox__title">{s.title}</span>
            <span className="searchbox__where">{s.collection}</span>
          </div>
        ))}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {expanded ? `${items.length} suggestion${items.length === 1 ? '' : 's'}, use the arrow keys to choose` : ''}
      </p>
    </div>
  );
}
