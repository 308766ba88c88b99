/**
 * Comment text arrives HTML-escaped (the service never stores or returns
 * markup as markup). React escapes what it renders, so decode the five
 * entities back to the characters the visitor typed before rendering.
 */
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

export function unescapeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]);
}
