/** The tree of Arrow allocators with limits and leak checks. */
package dev.columba.core.memory;
