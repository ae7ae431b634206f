/*
 * A stand-in for Windows' bcryptprimitives.dll under Debian's wine 8.0,
 * for the tests only (scripts/ci/platforms.sh builds it with MinGW into
 * a throwaway wine prefix; it is never shipped). Rust's standard library
 * takes its random bytes from ProcessPrng, which every Windows since 10
 * exports from bcryptprimitives.dll and wine 8.0 does not: without it
 * chariot.exe cannot start there. This one function asks advapi32's
 * RtlGenRandom (SystemFunction036), which wine has, for the same bytes.
 */
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
