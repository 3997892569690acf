/** Table schemas: columns, their types and nullability. Owns no catalog persistence (storage does). */
package dev.columba.core.schema;
