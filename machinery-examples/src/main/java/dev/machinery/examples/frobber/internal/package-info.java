/** The internal form of the Frobber API; its deep copies are generated. */
@GenerateDeepCopy
package dev.machinery.examples.frobber.internal;

import dev.machinery.conversion.GenerateDeepCopy;
