/**
 * The id-lookup benchmark ({@code --only=id-lookups}): documents looked up by external id against
 * every directory, from one and two threads, over an index built once and opened by all of them at
 * once.
 */
package dev.spindle.bench.idlookup;
