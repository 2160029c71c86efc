/*
 * bcryptprimitives.dll for Wine 8, which lacks it. Go >= 1.22 imports
 * ProcessPrng from this DLL for its random numbers and will not start
 * without it. This one export fills the buffer from advapi32's
 * RtlGenRandom (exported as SystemFunction036), which Wine has.
 *
 * Only for testing the Windows engine under Wine (scripts/wine-test.sh);
 * real Windows (10 and later) has its own bcryptprimitives.dll.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	/* RtlGenRandom takes a ULONG length: fill large buffers in pieces. */
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE;
}
