/**
 * The internal form of the Frobber API (api-changes.md): the hub every version converts through.
 */
@GenerateDeepCopy
package dev.machinery.core.testapi.frobber.internal;

import dev.machinery.conversion.GenerateDeepCopy;
