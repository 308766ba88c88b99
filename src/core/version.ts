/** This release's version: the OpenAPI document, the MCP server and site packages name it. */
export const RELEASE_VERSION = '0.1.0';
