/**
 * Typed settings with units, bounds and scopes, and their values at the default, global and
 * session levels. Persisting global values is the storage layer's job.
 */
package dev.columba.core.settings;
