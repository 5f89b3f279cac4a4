/** Frobber v7beta1: the clean params list, forked from the internal form. */
@GenerateConversions(internalPackage = "dev.machinery.core.testapi.frobber.internal")
package dev.machinery.core.testapi.frobber.v7beta1;

import dev.machinery.conversion.GenerateConversions;
