/* ProcessPrng for Wine 8, which lacks bcryptprimitives.dll: Rust's standard library (1.78 and
 * later) imports this one function from it for HashMap seeds and the like. It is answered by
 * advapi32's SystemFunction036 (RtlGenRandom), which Wine has. Built by tools/wine/setup into
 * the Wine prefix's system32; never part of what agentsmd ships. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
