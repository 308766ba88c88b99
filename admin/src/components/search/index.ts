export { SearchBox, type SearchBoxProps } from './SearchBox';
export { Snippet } from './Snippet';
export {
  MIN_SUGGEST_CHARS,
  type SearchHit,
  type SearchParams,
  type Suggestion,
  snippetParts,
  useDebounced,
  useSearchResults,
  useSuggestions,
} from './useSearch';
