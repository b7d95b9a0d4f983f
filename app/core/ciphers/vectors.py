"""Published test vectors for every algorithm and mode in the registry, as data.

Every hex string here was extracted by a script (never typed) from a published vector file; each
:class:`Vector` names its document (a key of :data:`DOCUMENTS`, which gives the full citation)
and its exact location (file, section, COUNT). Most files come from the ``cryptography_vectors``
50.0.2 wheel (``cryptography_vectors/ciphers/...``), which redistributes the NIST CAVP response
files and the RFC appendices; the rest from pycryptodome 4.4's self-test sources and Wycheproof.

Conventions, so a checker needs no per-file knowledge:

- ``ciphertext`` never contains the tag; ``tag`` is separate (empty for unauthenticated modes).
- ECB and CBC vectors are raw blocks without padding, as NIST publishes them.
- CFB is full-block CFB (CFB128 for AES, CFB64 for Blowfish/3DES/DES), as OpenSSL's ``-cfb``.
- AES-CTR ``iv`` is the full initial counter block (RFC 3686: nonce || IV || counter 1).
- ChaCha20 ``iv`` is OpenSSL's 16 bytes: little-endian 32-bit block counter || 96-bit nonce.
- AES-SIV vectors with an empty ``iv`` are deterministic (RFC 5297 A.1): ``aad`` is the single
  S2V component. RFC 5297 A.2 (two AD strings plus a nonce) is left out: the adapter takes one AD
  string and the nonce, so it cannot express three components.
- ``offset`` (RC4, RFC 6229) is how many keystream bytes precede ``plaintext``.

A handful of vectors per (algorithm, mode, key size): known-answer and multi-block ones, with and
without associated data, empty plaintext where the source has it. Sizes with no published vector
(Blowfish/3DES/DES in CTR mode, Blowfish keys above 192 bits, most RC4 key sizes) are covered by
derived checks in :mod:`app.core.ciphers.selftest_derived`.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- where the vectors come from ------------------------------------------------------------

_CAVP_AES = "NIST CAVP AESAVS"
_RFC3686 = "RFC 3686"
_CAVP_GCM = "NIST CAVP GCMVS"
_CAVP_CCM = "NIST CAVP CCMVS"
_RFC7253 = "RFC 7253"
_SIV = "RFC 5297"
_RFC8452 = "RFC 8452"
_EAX_PAPER = "EAX paper"
_WYCHEPROOF_EAX = "Wycheproof EAX"
_WYCHEPROOF_SIV = "Wycheproof AES-SIV"
_RFC7539 = "RFC 7539"
_BORINGSSL_CCP = "BoringSSL"
_XCHACHA = "draft-irtf-cfrg-xchacha-03"
_BLOWFISH = "Blowfish reference vectors"
_CAVP_TDES = "NIST CAVP TDES"
_SP800_20 = "NIST SP 800-20"
_RFC6229 = "RFC 6229"
_RFC3713 = "RFC 3713"
_NTT_CAMELLIA = "NTT Camellia test vectors"
_OPENSSL_CAMELLIA = "OpenSSL Camellia EVP tests"

_WHEEL = "cryptography_vectors 50.0.2 wheel"

DOCUMENTS: dict[str, str] = {
    _CAVP_AES: "NIST CAVP, The Advanced Encryption Standard Algorithm Validation Suite (AESAVS): "
    "KAT (GFSbox, KeySbox) and Multiblock Message Test (MMT) response files, "
    f"{_WHEEL} ciphers/AES/{{ECB,CBC,CFB,OFB}}/*.rsp (CFB = CFB128*.rsp)",
    _RFC3686: "RFC 3686, Using AES Counter (CTR) Mode With IPsec ESP, section 6 (test vectors "
    f"#1-#9), {_WHEEL} ciphers/AES/CTR/aes-{{128,192,256}}-ctr.txt",
    _CAVP_GCM: "NIST CAVP, The Galois/Counter Mode (GCM) and GMAC Validation System (GCMVS): "
    f"gcmEncryptExtIV{{128,192,256}}.rsp (96-bit IV, 128-bit tag), {_WHEEL} ciphers/AES/GCM/",
    _CAVP_CCM: "NIST CAVP, The CCM Validation System (CCMVS): Decryption-Verification Process "
    "Test DVPT{128,192,256}.rsp (Result = Pass cases) and Variable Nonce Test VNT*.rsp, "
    f"{_WHEEL} ciphers/AES/CCM/",
    _RFC7253: "RFC 7253, The OCB Authenticated-Encryption Algorithm, appendix A (sample results "
    f"and the iterated test), {_WHEEL} ciphers/AES/OCB3/rfc7253.txt; iterated-test outputs "
    "from pycryptodome 4.4 Crypto/SelfTest/Cipher/test_OCB.py (TestOcbRfc7253.tv3)",
    _SIV: "RFC 5297, Synthetic Initialization Vector (SIV) Authenticated Encryption Using AES, "
    f"appendix A.1, and OpenSSL's 384/512-bit-key variants of it, {_WHEEL} "
    "ciphers/AES/SIV/openssl.txt",
    _RFC8452: "RFC 8452, AES-GCM-SIV: Nonce Misuse-Resistant Authenticated Encryption, appendix "
    f"C.1 (AEAD_AES_128_GCM_SIV) and C.2 (AEAD_AES_256_GCM_SIV), {_WHEEL} "
    "ciphers/AES/GCM-SIV/openssl.txt",
    _EAX_PAPER: "M. Bellare, P. Rogaway, D. Wagner, The EAX Mode of Operation (FSE 2004), "
    "appendix test vectors (AES-128), from pycryptodome 4.4 Crypto/SelfTest/Cipher/test_EAX.py "
    "(TestVectorsPaper)",
    _WYCHEPROOF_EAX: "Project Wycheproof (C2SP/wycheproof) testvectors/aes_eax_test.json, commit "
    "2f387d269d960b389c0073b46acc1b5e84c71159 (version 0.8r12), valid 192/256-bit-key cases",
    _WYCHEPROOF_SIV: "Project Wycheproof (C2SP/wycheproof) testvectors/aes_siv_cmac_test.json, "
    "commit 7c9c6db85cbdbb497b3cc07bf60acc8453088a39 (generatorVersion 0.7), valid cases "
    "(deterministic: one AD string, no nonce)",
    _RFC7539: "RFC 7539 (republished as RFC 8439), ChaCha20 and Poly1305 for IETF Protocols: "
    "appendix A.2 (ChaCha20), section 2.8.2 and appendix A.5 (AEAD), "
    f"{_WHEEL} ciphers/ChaCha20/rfc7539.txt and ciphers/ChaCha20Poly1305/",
    _BORINGSSL_CCP: "BoringSSL's ChaCha20-Poly1305 AEAD tests, "
    f"{_WHEEL} ciphers/ChaCha20Poly1305/boringssl.txt",
    _XCHACHA: "draft-irtf-cfrg-xchacha-03, XChaCha: eXtended-nonce ChaCha and AEAD_XChaCha20_"
    "Poly1305, section A.3.1, from pycryptodome 4.4 Crypto/SelfTest/Cipher/"
    "test_ChaCha20_Poly1305.py (TestXChaCha20Poly1305.test_encrypt)",
    _BLOWFISH: "Eric Young's Blowfish test vectors (https://www.schneier.com/wp-content/uploads/"
    f"2015/12/vectors-2.txt): ecb, set_key, cbc, cfb64 and ofb64 data, {_WHEEL} "
    "ciphers/Blowfish/bf-{ecb,cbc,cfb,ofb}.txt",
    _CAVP_TDES: "NIST CAVP TDES validation (CAVS 11.1, tdes_values): Multi-block Message Test "
    "response files (MMT1: KEY1 = KEY2 = KEY3, MMT2: KEY1 = KEY3, "
    f"MMT3: three keys), {_WHEEL} ciphers/3DES/{{ECB,CBC,CFB,OFB}}/T*MMT*.rsp "
    "(CFB = TCFB64, full-block)",
    _SP800_20: "NIST SP 800-20, Modes of Operation Validation System for the Triple Data "
    "Encryption Algorithm: the single-key (KEYs) variable key / variable text known-answer "
    f"tests, which are DES tests, {_WHEEL} ciphers/3DES/*/T*{{varkey,vartext}}.rsp",
    _RFC6229: "RFC 6229, Test Vectors for the Stream Cipher RC4, section 2 (first key of each "
    f"length), {_WHEEL} ciphers/ARC4/rfc-6229-*.txt",
    _RFC3713: "RFC 3713, A Description of the Camellia Encryption Algorithm, appendix A "
    "(test data for 128-, 192- and 256-bit keys)",
    _NTT_CAMELLIA: "NTT's Camellia test vectors (t_camelia.txt), "
    f"{_WHEEL} ciphers/Camellia/camellia-128-ecb.txt",
    _OPENSSL_CAMELLIA: "OpenSSL test/recipes/30-test_evp_data/evpciph_camellia.txt, CBC "
    "(SP 800-38A F.2 plaintext blocks chained from IV 000102..0f), "
    f"{_WHEEL} ciphers/Camellia/camellia-cbc.txt",
}


@dataclass(frozen=True)
class Vector:
    """One published encryption: hex strings, ``ciphertext`` without the tag (see module doc)."""

    algorithm: str  # as CipherSpec.algorithm
    mode: str  # as CipherSpec.mode
    document: str  # a key of DOCUMENTS
    location: str  # file, section and COUNT inside the document
    key: str
    plaintext: str
    ciphertext: str
    iv: str = ""
    aad: str = ""
    tag: str = ""
    offset: int = 0

    @property
    def key_bits(self) -> int:
        return len(self.key) * 4

    @property
    def source(self) -> str:
        return f"{self.document}: {self.location}"


@dataclass(frozen=True)
class OcbIterated:
    """RFC 7253 appendix A's iterated test: 385 OCB encryptions under the key
    ``zeros(key_bits - 8) || tag_bits`` with 96-bit nonces 1..385, of which ``output`` is the
    last (the tag over all earlier outputs). Covers the 192- and 256-bit keys, which have no
    plain sample vector."""

    key_bits: int
    document: str
    location: str
    output: str
    tag_bits: int = 128
    nonce_bits: int = 96


def vectors_for(algorithm: str, mode: str) -> tuple[Vector, ...]:
    """Every vector of ``algorithm`` in ``mode``, all key sizes."""
    return tuple(v for v in VECTORS if v.algorithm == algorithm and v.mode == mode)


# --- the vectors (generated; see DOCUMENTS for the sources) ----------------------------------

VECTORS: tuple[Vector, ...] = (
    # --- AES-128-ECB: NIST CAVP AESAVS
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBGFSbox128.rsp [ENCRYPT] COUNT = 0",
        key="00000000000000000000000000000000",
        plaintext="f34481ec3cc627bacd5dc3fb08f273e6",
        ciphertext="0336763e966d92595a567cc9ce537f5e",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBKeySbox128.rsp [ENCRYPT] COUNT = 0",
        key="10a58869d74be5a374cf867cfb473859",
        plaintext="00000000000000000000000000000000",
        ciphertext="6d251e6944b051e04eaa6fb4dbf78465",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBMMT128.rsp [ENCRYPT] COUNT = 1",
        key="7723d87d773a8bbfe1ae5b081235b566",
        plaintext="1b0a69b7bc534c16cecffae02cc5323190ceb413f1db3e9f0f79ba654c54b60e",
        ciphertext="ad5b089515e7821087c61652dc477ab1f2cc6331a70dfc59c9ffb0c723c682f6",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBMMT128.rsp [ENCRYPT] COUNT = 9",
        key="ebea9c6a82213a00ac1d22faea22116f",
        plaintext=(
            "451f45663b44fd005f3c288ae57b383883f02d9ad3dc1715f9e3d6948564257b9b06d7dd51935fee"
            "580a96bbdfefb918b4e6b1daac809847465578cb8b5356ed38556f801ff7c11ecba9cdd263039c15"
            "d05900fc228e1caf302d261d7fb56cee663595b96f192a78ff4455393a5fe8162170a066fdaeac35"
            "019469f22b3470686bced2f007a1a2e43e01b4562caaa502ed541b8205874ec1ffb1c8b255766942"
        ),
        ciphertext=(
            "01043053f832ef9b911ed387ba577451e30d51d4b6b11f319d4cd539d067b7f4f9b4f41f7f3d4e92"
            "0c57cbe2b5e1885aa66203ae493e93a1df63793a9563c176bc6775dd09cc9161e278a01beb8fd8a1"
            "9200326bd95abc5f716768e34f90b50523d30fdabb103a3bc020afbbb0cb3bd2ad512a6fea79f8d6"
            "4cef347458dec48be89451cb0b807d73593f273d9fc521b789a77524404f43e00f20b3b77b938b1a"
        ),
    ),
    # --- AES-192-ECB: NIST CAVP AESAVS
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBGFSbox192.rsp [ENCRYPT] COUNT = 0",
        key="000000000000000000000000000000000000000000000000",
        plaintext="1b077a6af4b7f98229de786d7516b639",
        ciphertext="275cfc0413d8ccb70513c3859b1d0f72",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBKeySbox192.rsp [ENCRYPT] COUNT = 0",
        key="e9f065d7c13573587f7875357dfbb16c53489f6a4bd0f7cd",
        plaintext="00000000000000000000000000000000",
        ciphertext="0956259c9cd5cfd0181cca53380cde06",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBMMT192.rsp [ENCRYPT] COUNT = 1",
        key="c9c86a51224e5f1916d3f33a602f697afc852a2c44d30d5f",
        plaintext="64145e61e61cd96f796b187464fabbde6f42e693f501f1d73b3c606f00801506",
        ciphertext="502a73e4051cfac8fe6343211a129f5a5f56710c41b32c84da978dda2cec34ad",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBMMT192.rsp [ENCRYPT] COUNT = 9",
        key="4f41fa4d4a25100b586551828373bcca5540c68e9bf84562",
        plaintext=(
            "7c727bd3e7048e7a8995b7b1169ae4b5a55e854bb4f7a9576d7863ab2868731d307322dcca606e04"
            "7343676f6af4d9cf6ebf2bf9c95d87848d233c931e7a60eff08fb959924cde1eec8699ebc57890e3"
            "887024ef47c89a550018788d1faa3250452e06f148af25f07bc613cd2f0e501a79d738d4361f28f3"
            "4dbee24034e03367b6b8d34df3738ca3a86b9ebcb09e639bcb5e2f519f4a7a86fc7c41556404a95d"
        ),
        ciphertext=(
            "922812ad5feacdf11fe7fdae96300149419e31cff54061b3c5ed27fdb8b50c9c0932b522a6c04e48"
            "2499b011ef3c3e9dc56a1a61cfeb78b34032d26dbdc3cac51a3279bc934b9bce2d9c19bf85823561"
            "3ba784e48e292d22c6b5a28e1d1bb860524fb7b5f9b3d9a5f4da66e340585bd2496fe6d6942db8d0"
            "5d716fec03b17d19abb58b33332e24beaec7995d69525364fe139aa1fd62054668c58f23f1f94cfd"
        ),
    ),
    # --- AES-256-ECB: NIST CAVP AESAVS
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBGFSbox256.rsp [ENCRYPT] COUNT = 0",
        key="0000000000000000000000000000000000000000000000000000000000000000",
        plaintext="014730f80ac625fe84f026c60bfd547d",
        ciphertext="5c9d844ed46f9885085e5d6a4f94c7d7",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBKeySbox256.rsp [ENCRYPT] COUNT = 0",
        key="c47b0294dbbbee0fec4757f22ffeee3587ca4730c3d33b691df38bab076bc558",
        plaintext="00000000000000000000000000000000",
        ciphertext="46f2fb342d6f0ab477476fc501242c5f",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBMMT256.rsp [ENCRYPT] COUNT = 1",
        key="7a52e4d342aa07255a7e7c34266cf7302abe2d4dd7ec4468a46187ee61825ffa",
        plaintext="7e771c6ee4b26db89050e982ba7e9803c8da34606434dd85d2910e538076d001",
        ciphertext="a91d8b2ddf37520bc469470ad0dd6394923143ce55386beb1f9c4bd51584658e",
    ),
    Vector(
        "AES",
        "ECB",
        _CAVP_AES,
        "ECBMMT256.rsp [ENCRYPT] COUNT = 9",
        key="44a2b5a7453e49f38261904f21ac797641d1bcd8ddedd293f319449fe63b2948",
        plaintext=(
            "c91b8a7b9c511784b6a37f73b290516bb9ef1e8df68d89bf49169eac4039650c4307b6260e9c4e93"
            "650223440252f5c7d31c26c56209cbd095bf035b9705880a1628832daf9da587a6e77353dbbce189"
            "f963235df160c008a753e8ccea1e0732aa469a97659c42e6e31c16a723153e39958abe5b8ad88ff2"
            "e89af40622ca0b0d6729a26c1ae04d3b8367b548c4a6335f0e5a9ec914bb6113c05cd0112552bc21"
        ),
        ciphertext=(
            "05d51af0e2b61e2c06cb1e843fee3172825e63b5d1ce8183b7e1db6268db5aa726521f46e948028a"
            "a443af9ebd8b7c6baf958067ab0d4a8ac530ecbb68cdfc3eb93034a428eb7e8f6a3813cea6189068"
            "dfecfa268b7ecd5987f8cb2732c6882bbec8f716bac254d72269230aec5dc7f5a6b866fd30524255"
            "2d400f5b0404f19cbfe7291fab690ecfe6018c4309fc639d1b65fcb65e643edb0ad1f09cfe9cee4a"
        ),
    ),
    # --- AES-128-CBC: NIST CAVP AESAVS
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCGFSbox128.rsp [ENCRYPT] COUNT = 0",
        key="00000000000000000000000000000000",
        iv="00000000000000000000000000000000",
        plaintext="f34481ec3cc627bacd5dc3fb08f273e6",
        ciphertext="0336763e966d92595a567cc9ce537f5e",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCKeySbox128.rsp [ENCRYPT] COUNT = 0",
        key="10a58869d74be5a374cf867cfb473859",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="6d251e6944b051e04eaa6fb4dbf78465",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCMMT128.rsp [ENCRYPT] COUNT = 1",
        key="0700d603a1c514e46b6191ba430a3a0c",
        iv="aad1583cd91365e3bb2f0c3430d065bb",
        plaintext="068b25c7bfb1f8bdd4cfc908f69dffc5ddc726a197f0e5f720f730393279be91",
        ciphertext="c4dc61d9725967a3020104a9738f23868527ce839aab1752fd8bdb95a82c4d00",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCMMT128.rsp [ENCRYPT] COUNT = 9",
        key="2c14413751c31e2730570ba3361c786b",
        iv="1dbbeb2f19abb448af849796244a19d7",
        plaintext=(
            "40d930f9a05334d9816fe204999c3f82a03f6a0457a8c475c94553d1d116693adc618049f0a769a2"
            "eed6a6cb14c0143ec5cccdbc8dec4ce560cfd206225709326d4de7948e54d603d01b12d7fed752fb"
            "23f1aa4494fbb00130e9ded4e77e37c079042d828040c325b1a5efd15fc842e44014ca4374bf38f3"
            "c3fc3ee327733b0c8aee1abcd055772f18dc04603f7b2c1ea69ff662361f2be0a171bbdcea1e5d3f"
        ),
        ciphertext=(
            "6be8a12800455a320538853e0cba31bd2d80ea0c85164a4c5c261ae485417d93effe2ebc0d0a0b51"
            "d6ea18633d210cf63c0c4ddbc27607f2e81ed9113191ef86d56f3b99be6c415a4150299fb846ce71"
            "60b40b63baf1179d19275a2e83698376d28b92548c68e06e6d994e2c1501ed297014e702cdefee2f"
            "656447706009614d801de1caaf73f8b7fa56cf1ba94b631933bbe577624380850f117435a0355b2b"
        ),
    ),
    # --- AES-192-CBC: NIST CAVP AESAVS
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCGFSbox192.rsp [ENCRYPT] COUNT = 0",
        key="000000000000000000000000000000000000000000000000",
        iv="00000000000000000000000000000000",
        plaintext="1b077a6af4b7f98229de786d7516b639",
        ciphertext="275cfc0413d8ccb70513c3859b1d0f72",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCKeySbox192.rsp [ENCRYPT] COUNT = 0",
        key="e9f065d7c13573587f7875357dfbb16c53489f6a4bd0f7cd",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="0956259c9cd5cfd0181cca53380cde06",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCMMT192.rsp [ENCRYPT] COUNT = 1",
        key="eab3b19c581aa873e1981c83ab8d83bbf8025111fb2e6b21",
        iv="f3d6667e8d4d791e60f7505ba383eb05",
        plaintext="9d4e4cccd1682321856df069e3f1c6fa391a083a9fb02d59db74c14081b3acc4",
        ciphertext="51d44779f90d40a80048276c035cb49ca2a47bcb9b9cf7270b9144793787d53f",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCMMT192.rsp [ENCRYPT] COUNT = 9",
        key="162ad50ee64a0702aa551f571dedc16b2c1b6a1e4d4b5eee",
        iv="24408038161a2ccae07b029bb66355c1",
        plaintext=(
            "be8abf00901363987a82cc77d0ec91697ba3857f9e4f84bd79406c138d02698f003276d0449120be"
            "f4578d78fecabe8e070e11710b3f0a2744bd52434ec70015884c181ebdfd51c604a71c52e4c0e110"
            "bc408cd462b248a80b8a8ac06bb952ac1d7faed144807f1a731b7febcaf7835762defe92eccfc7a9"
            "944e1c702cffe6bc86733ed321423121085ac02df8962bcbc1937092eebf0e90a8b20e3dd8c244ae"
        ),
        ciphertext=(
            "c82cf2c476dea8cb6a6e607a40d2f0391be82ea9ec84a537a6820f9afb997b76397d005424faa6a7"
            "4dc4e8c7aa4a8900690f894b6d1dca80675393d2243adac762f159301e357e98b724762310cd5a7b"
            "afe1c2a030dba46fd93a9fdb89cc132ca9c17dc72031ec6822ee5a9d99dbca66c784c01b0885cbb6"
            "2e29d97801927ec415a5d215158d325f9ee689437ad1b7684ad33c0d92739451ac87f39ff8c31b84"
        ),
    ),
    # --- AES-256-CBC: NIST CAVP AESAVS
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCGFSbox256.rsp [ENCRYPT] COUNT = 0",
        key="0000000000000000000000000000000000000000000000000000000000000000",
        iv="00000000000000000000000000000000",
        plaintext="014730f80ac625fe84f026c60bfd547d",
        ciphertext="5c9d844ed46f9885085e5d6a4f94c7d7",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCKeySbox256.rsp [ENCRYPT] COUNT = 0",
        key="c47b0294dbbbee0fec4757f22ffeee3587ca4730c3d33b691df38bab076bc558",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="46f2fb342d6f0ab477476fc501242c5f",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCMMT256.rsp [ENCRYPT] COUNT = 1",
        key="dce26c6b4cfb286510da4eecd2cffe6cdf430f33db9b5f77b460679bd49d13ae",
        iv="fdeaa134c8d7379d457175fd1a57d3fc",
        plaintext="50e9eee1ac528009e8cbcd356975881f957254b13f91d7c6662d10312052eb00",
        ciphertext="2fa0df722a9fd3b64cb18fb2b3db55ff2267422757289413f8f657507412a64c",
    ),
    Vector(
        "AES",
        "CBC",
        _CAVP_AES,
        "CBCMMT256.rsp [ENCRYPT] COUNT = 9",
        key="48be597e632c16772324c8d3fa1d9c5a9ecd010f14ec5d110d3bfec376c5532b",
        iv="d6d581b8cf04ebd3b6eaa1b53f047ee1",
        plaintext=(
            "0c63d413d3864570e70bb6618bf8a4b9585586688c32bba0a5ecc1362fada74ada32c52acfd1aa74"
            "44ba567b4e7daaecf7cc1cb29182af164ae5232b002868695635599807a9a7f07a1f137e97b1e1c9"
            "dabc89b6a5e4afa9db5855edaa575056a8f4f8242216242bb0c256310d9d329826ac353d715fa39f"
            "80cec144d6424558f9f70b98c920096e0f2c855d594885a00625880e9dfb734163cecef72cf030b8"
        ),
        ciphertext=(
            "fc5873e50de8faf4c6b84ba707b0854e9db9ab2e9f7d707fbba338c6843a18fc6facebaf663d2629"
            "6fb329b4d26f18494c79e09e779647f9bafa87489630d79f4301610c2300c19dbf3148b7cac8c4f4"
            "944102754f332e92b6f7c5e75bc6179eb877a078d4719009021744c14f13fd2a55a2b9c44d180006"
            "85a845a4f632c7c56a77306efa66a24d05d088dcd7c13fe24fc447275965db9e4d37fbc9304448cd"
        ),
    ),
    # --- AES-128-CFB: NIST CAVP AESAVS
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128GFSbox128.rsp [ENCRYPT] COUNT = 0",
        key="00000000000000000000000000000000",
        iv="f34481ec3cc627bacd5dc3fb08f273e6",
        plaintext="00000000000000000000000000000000",
        ciphertext="0336763e966d92595a567cc9ce537f5e",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128KeySbox128.rsp [ENCRYPT] COUNT = 0",
        key="10a58869d74be5a374cf867cfb473859",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="6d251e6944b051e04eaa6fb4dbf78465",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128MMT128.rsp [ENCRYPT] COUNT = 1",
        key="701ccc4c0e36e512ce077f5af6ccb957",
        iv="5337ddeaf89a00dd4d58d860de968469",
        plaintext="cc1172f2f80866d0768b25f70fcf6361aab7c627c8488f97525d7d88949beeea",
        ciphertext="cdcf093bb7840df225683b58a479b00d5de5553a7e85eae4b70bf46dc729dd31",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128MMT128.rsp [ENCRYPT] COUNT = 9",
        key="7cb81fc4b203b0fa9bec49759bd515c2",
        iv="4d5e2fa3bf73f488b3e7e125f03dfbbe",
        plaintext=(
            "362789b376d85eb8181d4eeea52d42e873ce7741c11a2f820383a7457b15489b09fb21ac4445959d"
            "c9e851b7d40682c50d7044bda46a5da39fae2bab73b3db9ed22edc7ec5da936dfa7451cb5f0a829f"
            "f0762738cc2686148f1e1f00dc3fe38139c9a173201fc1f052ca34736fc1ab3dc4e707f864d6119b"
            "7adb6c8ddd41c80de5d357d17e9c85ed7af1e4f72cb2656932ccce469202680109eef89a9f42f10a"
        ),
        ciphertext=(
            "ac23259f68d4f82604cabd2e4237821c8b6c0aad0dfb1120b6b057223c994d62b5c6f63a25edbb79"
            "7cd299f81ccb86d50134ad26107865142004c2d9d52fe3f91acf7b9b8111c8b4e14b05b173730e7b"
            "812036029846f1c1c6ffb30f6abcfc3e1ea631480e0d0bda106bb87319fdae09a11b89e8dde625d5"
            "3a19c65ae58fbe3f4bcbc3c99af05cb0a7cc4b793d8cdb1cfa3173ede595c8c561f92c3fe3638b8d"
        ),
    ),
    # --- AES-192-CFB: NIST CAVP AESAVS
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128GFSbox192.rsp [ENCRYPT] COUNT = 0",
        key="000000000000000000000000000000000000000000000000",
        iv="1b077a6af4b7f98229de786d7516b639",
        plaintext="00000000000000000000000000000000",
        ciphertext="275cfc0413d8ccb70513c3859b1d0f72",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128KeySbox192.rsp [ENCRYPT] COUNT = 0",
        key="e9f065d7c13573587f7875357dfbb16c53489f6a4bd0f7cd",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="0956259c9cd5cfd0181cca53380cde06",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128MMT192.rsp [ENCRYPT] COUNT = 1",
        key="69f9d29885743826d7c5afc53637e6b1fa9512a10eea9ca9",
        iv="3743793c7144a755768437f4ef5a33c8",
        plaintext="f84ebf42a758971c369949e288f775c9cf6a82ab51b286576b45652cd68c3ce6",
        ciphertext="a3bd28bb817bdb3f6492827f2aa3e6e134c254129d8f20dbc92389b7d89702d6",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128MMT192.rsp [ENCRYPT] COUNT = 9",
        key="affe25a7b28fe7427aa69a89cb87bc0fb68c940d63d319b3",
        iv="89e612f77ef55ee86935d90a8c7466c2",
        plaintext=(
            "b5719702560b8b214c73b9a2ea7a43707b10e0b79152d1019ac4179fb4dae34ac3be4e0ac04d4a57"
            "5462d87ea5587c4770caeed5589d13cd7d412bbb51334cb1a7c70f310d24894c5c907d0c8deecf10"
            "ce843c76d50249fe75c0796b6f48c32d8a14433ee699304a8d840e124b432512c0c73161b3885bda"
            "a9ca6879b61f3107942e53faf2b227970ec6f559865f64966c1a3560983831aa42e660abd0c27c88"
        ),
        ciphertext=(
            "5bc958b594f0e4928cee7c019ee1884bab9b6956f40c47f24c1b8ef587d68b175dbc36226b7d95e5"
            "73702f5b0dc969a8c59b82816762847275c95234e3c74fba50841202c27264131ab03773b4e28ea7"
            "c68ea946efe2e2d9a89643d98c5dddd075098a930c741b535ba96ea0a08ad0cf68d11e8e98e26d0a"
            "79d3a5ef65dd137cc6c82a4e8edb1a63e9bc6e8705cef59b4b4c391924ffd33ace99808cc163272d"
        ),
    ),
    # --- AES-256-CFB: NIST CAVP AESAVS
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128GFSbox256.rsp [ENCRYPT] COUNT = 0",
        key="0000000000000000000000000000000000000000000000000000000000000000",
        iv="014730f80ac625fe84f026c60bfd547d",
        plaintext="00000000000000000000000000000000",
        ciphertext="5c9d844ed46f9885085e5d6a4f94c7d7",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128KeySbox256.rsp [ENCRYPT] COUNT = 0",
        key="c47b0294dbbbee0fec4757f22ffeee3587ca4730c3d33b691df38bab076bc558",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="46f2fb342d6f0ab477476fc501242c5f",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128MMT256.rsp [ENCRYPT] COUNT = 1",
        key="ae59254c66d8f533e7f5002ced480c33984a421d7816e27be66c34c19bfbc2a8",
        iv="821dd21653ece3af675cd25d26017ae3",
        plaintext="3cb4f17e775c2d6d06dd60f15d6c3a103e5131727f9c6cb80d13e00f316eb904",
        ciphertext="ae375db9f28148c460f6c6b6665fcc2ff6b50b8eaf82c64bba8c649efd4731bc",
    ),
    Vector(
        "AES",
        "CFB",
        _CAVP_AES,
        "CFB128MMT256.rsp [ENCRYPT] COUNT = 9",
        key="04c4499a7a10a319992258726191f8087af1182ebd48f43bf6c158dce8a5c0af",
        iv="7fc268d6599fcdef7457cdbde5b9c5b6",
        plaintext=(
            "04a66003969bbe72eedb638fb188bea1564d96df873994e2cacd02596053d2ff6d72e2ca5a007e65"
            "781727e1e66b92a8b4daf4b248457dfb019f22341b43a0b8d38bbec3cb9ed2deaf89869e1992dc8e"
            "b2c8706a9bdffe8e0b3b23ad394b68c67c187c54b01ec1c6dd5a0a2e13a4a43d983f936f46af1d83"
            "2eca8d2e81123110b142a5e7d327530348b13bfa9c4af09cae66e329115ce4c2b374e61ebc41037e"
        ),
        ciphertext=(
            "5235639833e022fa28ab90d2820abec07d2c3185a9c6e17618b8b68fb221bb5db242ad18c535d769"
            "4d1306ec26afdd459a53bb460485249c4f5fa73d41a0d6cc56988949f7ad82259fe3a3226f0bd8d4"
            "79f40a2bd36400075981206f50f268c921338e91613b3a3c0cee1c0ff6c4e1d30c4ca0f9a311e958"
            "6d9ed29dcc876fd09eb6405023ebc180c5635d4c7987286080847d3a74e9deeafaeec0697ca8db75"
        ),
    ),
    # --- AES-128-OFB: NIST CAVP AESAVS
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBGFSbox128.rsp [ENCRYPT] COUNT = 0",
        key="00000000000000000000000000000000",
        iv="f34481ec3cc627bacd5dc3fb08f273e6",
        plaintext="00000000000000000000000000000000",
        ciphertext="0336763e966d92595a567cc9ce537f5e",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBKeySbox128.rsp [ENCRYPT] COUNT = 0",
        key="10a58869d74be5a374cf867cfb473859",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="6d251e6944b051e04eaa6fb4dbf78465",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBMMT128.rsp [ENCRYPT] COUNT = 1",
        key="c9f4ce21b4c7daaa4f93e292dc605bc5",
        iv="5e5a8cf2808c720e01c1ed92d470a45d",
        plaintext="8e19c5cacd015a662e7f40cdecadbf79a68081c06d9544b41c2dd248e77633b4",
        ciphertext="885dc48add7ee6a1839bc5c5e03beae071301ecf91a0111520cde0d3a112f5d2",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBMMT128.rsp [ENCRYPT] COUNT = 9",
        key="939aac71e337709855715a57e3a4648f",
        iv="493509b56a92f14040eb9b66a188bc57",
        plaintext=(
            "9c22efddc7de496a916d15d710de374d57478126ed64c9ad7e823e24d19bfc0cfac3dda0d1c292a3"
            "a203f35b26ad94deb20f998caf41cbdd4a08eb5d6cfb46f4ede4896b0569d72c03ec194941af95c0"
            "573cc3fe8f045ba19946b382803248f3dd4f9a454b1a3e8e1af02ea8482d637dac96a68275f4a382"
            "d3023f9df4892b9032cab9378b1cef5051d6db81226f259d1be4eb23495ac807600536b5b0481754"
        ),
        ciphertext=(
            "7c0217d4f990342be5a35e2bdd4756ae7f461add633a7b0f5174ee107a7c0c53b1c787cb83e5ddb8"
            "76e251a23caf7959d952638c2aa28b2b08928c9b88e4c0e0fd0d8154690c3638ce692f20905e7263"
            "ff359bcc17e3b43d2276ef1fc4c882282f9a453bc03eb29e9c95986318c19150acf1bf33270752d3"
            "2488543f598f8ed4db3ccb990c8bfdf64cae0d1c6011042acda8c2687a758c2ba8080720990be88d"
        ),
    ),
    # --- AES-192-OFB: NIST CAVP AESAVS
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBGFSbox192.rsp [ENCRYPT] COUNT = 0",
        key="000000000000000000000000000000000000000000000000",
        iv="1b077a6af4b7f98229de786d7516b639",
        plaintext="00000000000000000000000000000000",
        ciphertext="275cfc0413d8ccb70513c3859b1d0f72",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBKeySbox192.rsp [ENCRYPT] COUNT = 0",
        key="e9f065d7c13573587f7875357dfbb16c53489f6a4bd0f7cd",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="0956259c9cd5cfd0181cca53380cde06",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBMMT192.rsp [ENCRYPT] COUNT = 1",
        key="6a32b19fc5f048a29efe97927e8f91df23390278d4fc81eb",
        iv="39776bf5d8965c7b795e3c6f23115cac",
        plaintext="e8bc8453a7d47de7a9ccd94385b008693e4645f3179311b4a9a1e09c328012dc",
        ciphertext="18132430a50b89c64c72c5d9092d8bfb844291799d70151690ca85837d89a79d",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBMMT192.rsp [ENCRYPT] COUNT = 9",
        key="17b0f9915f6b541e1d3fec5b9c5dfe1cb05a9dbc9983b20f",
        iv="eaf17cec9714d2e6f266f283618494eb",
        plaintext=(
            "0d4e7f3f732bf9d8d2d3f648968fe84175d1c7f5ac6d6be48c0539f336c501bfa3512730e7fc0151"
            "b63b815f27591420b86cc9759287b6330f31982f7a16b99816fd178a61fac2df99e58649800aca9e"
            "5d22b87243839eeb959394d1ca8260e56e399674698d042b84b94c2d290bd3636addda1346c7ebb5"
            "27137702ae71bd4db3eced16881d8edd7e9f1d34abc3f718ea84798122bd6538cc9987e9af4b9979"
        ),
        ciphertext=(
            "05f6ec0f2e2215cc4518750c4c6adb0b4e0b28b0889b33528cc3865a44d8f3680d838ff3da8d57d1"
            "8df22187a716ad24630645732b7510aa77f5e3181f402b72df2543f825ff06ad5993324524a91709"
            "3867ae5b59ae439697fd53fb9605eed3cc6b5c89fee0b6bdfe62e1444290f3dd71ff6aa1b60a8abd"
            "bc70b2ae3aee999739d7e6952a18fcf43151b65a5c9504fe3bf166917a264ab0c048cdfc40d4e0bf"
        ),
    ),
    # --- AES-256-OFB: NIST CAVP AESAVS
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBGFSbox256.rsp [ENCRYPT] COUNT = 0",
        key="0000000000000000000000000000000000000000000000000000000000000000",
        iv="014730f80ac625fe84f026c60bfd547d",
        plaintext="00000000000000000000000000000000",
        ciphertext="5c9d844ed46f9885085e5d6a4f94c7d7",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBKeySbox256.rsp [ENCRYPT] COUNT = 0",
        key="c47b0294dbbbee0fec4757f22ffeee3587ca4730c3d33b691df38bab076bc558",
        iv="00000000000000000000000000000000",
        plaintext="00000000000000000000000000000000",
        ciphertext="46f2fb342d6f0ab477476fc501242c5f",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBMMT256.rsp [ENCRYPT] COUNT = 1",
        key="a92577607968dbeee135a24edc2f3263926d97141f2c6d9f96c0012f45d1b3b0",
        iv="97bfebec0c2e7704d002dc6a1fd36901",
        plaintext="bb28705ef9e5151afc73e3886f25f52175dbb57ae36eacc5ac4e989b9d69bff9",
        ciphertext="944169b510b2825505a14b22eaba744c19ee30da6ed697e3b879425f26808289",
    ),
    Vector(
        "AES",
        "OFB",
        _CAVP_AES,
        "OFBMMT256.rsp [ENCRYPT] COUNT = 9",
        key="1d6fab8e8e49d623cfc8d105f04dcfab60175d7db4fd452ea463b34c56679615",
        iv="2aff323645f8aecf9204e7450952264f",
        plaintext=(
            "581d511bbd441d3531e77a910ad194f40d8a69b63cd6396cef7f37c5265485b21e725fca22c297ec"
            "a4c341268c8aafd5d007a00e4589b43db584230c3193af87a8b9d77db9ec4e29c6d4ab114ad0622f"
            "6c3af34fd4ec61b8bd02e60e4be2e5771f7a20fd2ac92b34bea1211cebab954808abcb4090052825"
            "3081e8931d4b0fcbab3ea2121c611654b5b2090d1823306acde391ab22def2cb358791634fd515cc"
        ),
        ciphertext=(
            "6ca579544f243cb2074feb19edc128faa33635d6eed0c850502669860d7ea66842298154ab455f79"
            "db45fd72e0ce88d49210226c489e9c15fe09216218707bcb96e1e59aa8d7fcd99728f71a478f9fed"
            "c109a111622a63b8e6e736207b37adbf0e6f4990ed76b42434473f90bb8c75ca7df47d72dab61fb0"
            "c67d265502217c4e590b3536d8d7c7a03a64735e87799423f40b123b8e431e3bba45bf193b6c4af0"
        ),
    ),
    # --- AES-128-CTR: RFC 3686 section 6
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-128-ctr.txt COUNT = 0 (RFC 3686 test vector #1)",
        key="ae6852f8121067cc4bf7a5765577f39e",
        iv="00000030000000000000000000000001",
        plaintext="53696e676c6520626c6f636b206d7367",
        ciphertext="e4095d4fb7a7b3792d6175a3261311b8",
    ),
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-128-ctr.txt COUNT = 1 (RFC 3686 test vector #2)",
        key="7e24067817fae0d743d6ce1f32539163",
        iv="006cb6dbc0543b59da48d90b00000001",
        plaintext="000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ciphertext="5104a106168a72d9790d41ee8edad388eb2e1efc46da57c8fce630df9141be28",
    ),
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-128-ctr.txt COUNT = 2 (RFC 3686 test vector #3)",
        key="7691be035e5020a8ac6e618529f9a0dc",
        iv="00e0017b27777f3f4a1786f000000001",
        plaintext="000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223",
        ciphertext="c1cf48a89f2ffdd9cf4652e9efdb72d74540a42bde6d7836d59a5ceaaef3105325b2072f",
    ),
    # --- AES-192-CTR: RFC 3686 section 6
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-192-ctr.txt COUNT = 0 (RFC 3686 test vector #4)",
        key="16af5b145fc9f579c175f93e3bfb0eed863d06ccfdb78515",
        iv="0000004836733c147d6d93cb00000001",
        plaintext="53696e676c6520626c6f636b206d7367",
        ciphertext="4b55384fe259c9c84e7935a003cbe928",
    ),
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-192-ctr.txt COUNT = 1 (RFC 3686 test vector #5)",
        key="7c5cb2401b3dc33c19e7340819e0f69c678c3db8e6f6a91a",
        iv="0096b03b020c6eadc2cb500d00000001",
        plaintext="000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ciphertext="453243fc609b23327edfaafa7131cd9f8490701c5ad4a79cfc1fe0ff42f4fb00",
    ),
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-192-ctr.txt COUNT = 2 (RFC 3686 test vector #6)",
        key="02bf391ee8ecb159b959617b0965279bf59b60a786d3e0fe",
        iv="0007bdfd5cbd60278dcc091200000001",
        plaintext="000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223",
        ciphertext="96893fc55e5c722f540b7dd1ddf7e758d288bc95c69165884536c811662f2188abee0935",
    ),
    # --- AES-256-CTR: RFC 3686 section 6
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-256-ctr.txt COUNT = 0 (RFC 3686 test vector #7)",
        key="776beff2851db06f4c8a0542c8696f6c6a81af1eec96b4d37fc1d689e6c1c104",
        iv="00000060db5672c97aa8f0b200000001",
        plaintext="53696e676c6520626c6f636b206d7367",
        ciphertext="145ad01dbf824ec7560863dc71e3e0c0",
    ),
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-256-ctr.txt COUNT = 1 (RFC 3686 test vector #8)",
        key="f6d66d6bd52d59bb0796365879eff886c66dd51a5b6a99744b50590c87a23884",
        iv="00faac24c1585ef15a43d87500000001",
        plaintext="000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
        ciphertext="f05e231b3894612c49ee000b804eb2a9b8306b508f839d6a5530831d9344af1c",
    ),
    Vector(
        "AES",
        "CTR",
        _RFC3686,
        "aes-256-ctr.txt COUNT = 2 (RFC 3686 test vector #9)",
        key="ff7a617ce69148e4f1726e2f43581de2aa62d9f805532edff1eed687fb54153d",
        iv="001cc5b751a51d70a1c1114800000001",
        plaintext="000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20212223",
        ciphertext="eb6c52821d0bbbf7ce7594462aca4faab407df866569fd07f48cc0b583d6071f1ec0e6b8",
    ),
    # --- AES-128-GCM: NIST CAVP GCMVS
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV128.rsp [IVlen = 96][PTlen = 0][AADlen = 0][Taglen = 128] Count = 0",
        key="11754cd72aec309bf52f7687212e8957",
        iv="3c819d9a9bed087615030b65",
        plaintext="",
        ciphertext="",
        tag="250327c674aaf477aef2675748cf6971",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV128.rsp [IVlen = 96][PTlen = 128][AADlen = 0][Taglen = 128] Count = 0",
        key="7fddb57453c241d03efbed3ac44e371c",
        iv="ee283a3fc75575e33efd4887",
        plaintext="d5de42b461646c255c87bd2962d3b9a2",
        ciphertext="2ccda4a5415cb91e135c2a0f78c9b2fd",
        tag="b36d1df9b9d5e596f83e8b7f52971cb3",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV128.rsp [IVlen = 96][PTlen = 128][AADlen = 128][Taglen = 128] Count = 0",
        key="c939cc13397c1d37de6ae0e1cb7c423c",
        iv="b3d8cc017cbb89b39e0f67e2",
        plaintext="c3b3c41f113a31b73d9a5cd432103069",
        ciphertext="93fe7d9e9bfd10348a5606e5cafa7354",
        aad="24825602bd12a984e0092d3e448eda5f",
        tag="0032a1dc85f1c9786925a2e71d8272dd",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV128.rsp [IVlen = 96][PTlen = 408][AADlen = 720][Taglen = 128] Count = 0",
        key="2c1f21cf0f6fb3661943155c3e3d8492",
        iv="23cb5ff362e22426984d1907",
        plaintext=(
            "42f758836986954db44bf37c6ef5e4ac0adaf38f27252a1b82d02ea949c8a1a2dbc0d68b5615ba7c"
            "1220ff6510e259f06655d8"
        ),
        ciphertext=(
            "81824f0e0d523db30d3da369fdc0d60894c7a0a20646dd015073ad2732bd989b14a222b6ad57af43"
            "e1895df9dca2a5344a62cc"
        ),
        aad=(
            "5d3624879d35e46849953e45a32a624d6a6c536ed9857c613b572b0333e701557a713e3f010ecdf9"
            "a6bd6c9e3e44b065208645aff4aabee611b391528514170084ccf587177f4488f33cfb5e979e42b6"
            "e1cfc0a60238982a7aec"
        ),
        tag="57a3ee28136e94c74838997ae9823f3a",
    ),
    # --- AES-192-GCM: NIST CAVP GCMVS
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV192.rsp [IVlen = 96][PTlen = 0][AADlen = 0][Taglen = 128] Count = 0",
        key="aa740abfadcda779220d3b406c5d7ec09a77fe9d94104539",
        iv="ab2265b4c168955561f04315",
        plaintext="",
        ciphertext="",
        tag="f149e2b5f0adaa9842ca5f45b768a8fc",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV192.rsp [IVlen = 96][PTlen = 128][AADlen = 0][Taglen = 128] Count = 0",
        key="fbc0b4c56a714c83217b2d1bcadd2ed2e9efb0dcac6cc19f",
        iv="5f4b43e811da9c470d6a9b01",
        plaintext="d2ae38c4375954835d75b8e4c2f9bbb4",
        ciphertext="69482957e6be5c54882d00314e0259cf",
        tag="191e9f29bef63a26860c1e020a21137e",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV192.rsp [IVlen = 96][PTlen = 128][AADlen = 128][Taglen = 128] Count = 0",
        key="6f44f52c2f62dae4e8684bd2bc7d16ee7c557330305a790d",
        iv="9ae35825d7c7edc9a39a0732",
        plaintext="37222d30895eb95884bbbbaee4d9cae1",
        ciphertext="a54b5da33fc1196a8ef31a5321bfcaeb",
        aad="1b4236b846fc2a0f782881ba48a067e9",
        tag="1c198086450ae1834dd6c2636796bce2",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV192.rsp [IVlen = 96][PTlen = 408][AADlen = 720][Taglen = 128] Count = 0",
        key="50f5cc5e33774f383235c64e77c502ca6c5d06ab0af6be04",
        iv="9d4c766490224946d91a99a7",
        plaintext=(
            "35df59329eb5fc30c28791164bf9b374df228d2be467414727f457a9dd0f079f7342e23adb06929c"
            "e0ad607116ee11718ce320"
        ),
        ciphertext=(
            "77670f6520a34dfc05819a10f322b30e397473fe51f8274bfb105c2eec37e24951abaef11e73c3c4"
            "25a8c4b2d8c3ffeb8ed924"
        ),
        aad=(
            "4feca4174889298e992b765dfa67d33219f9b23898f8e869b7f1fbf5d71d87b44edd963d1055618b"
            "9db7bffe96b7856f3197868d6ce5e755a6c751661773e1def403a4cf036151ecae67b35f28912854"
            "20956604ef31c9aab341"
        ),
        tag="5349ef7a70499f2760123c0d5dcf5a6d",
    ),
    # --- AES-256-GCM: NIST CAVP GCMVS
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV256.rsp [IVlen = 96][PTlen = 0][AADlen = 0][Taglen = 128] Count = 0",
        key="b52c505a37d78eda5dd34f20c22540ea1b58963cf8e5bf8ffa85f9f2492505b4",
        iv="516c33929df5a3284ff463d7",
        plaintext="",
        ciphertext="",
        tag="bdc1ac884d332457a1d2664f168c76f0",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV256.rsp [IVlen = 96][PTlen = 128][AADlen = 0][Taglen = 128] Count = 0",
        key="31bdadd96698c204aa9ce1448ea94ae1fb4a9a0b3c9d773b51bb1822666b8f22",
        iv="0d18e06c7c725ac9e362e1ce",
        plaintext="2db5168e932556f8089a0622981d017d",
        ciphertext="fa4362189661d163fcd6a56d8bf0405a",
        tag="d636ac1bbedd5cc3ee727dc2ab4a9489",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV256.rsp [IVlen = 96][PTlen = 128][AADlen = 128][Taglen = 128] Count = 0",
        key="92e11dcdaa866f5ce790fd24501f92509aacf4cb8b1339d50c9c1240935dd08b",
        iv="ac93a1a6145299bde902f21a",
        plaintext="2d71bcfa914e4ac045b2aa60955fad24",
        ciphertext="8995ae2e6df3dbf96fac7b7137bae67f",
        aad="1e0889016f67601c8ebea4943bc23ad6",
        tag="eca5aa77d51d4a0a14d9c51e1da474ab",
    ),
    Vector(
        "AES",
        "GCM",
        _CAVP_GCM,
        "gcmEncryptExtIV256.rsp [IVlen = 96][PTlen = 408][AADlen = 720][Taglen = 128] Count = 0",
        key="148579a3cbca86d5520d66c0ec71ca5f7e41ba78e56dc6eebd566fed547fe691",
        iv="b08a5ea1927499c6ecbfd4e0",
        plaintext=(
            "9d0b15fdf1bd595f91f8b3abc0f7dec927dfd4799935a1795d9ce00c9b879434420fe42c275a7cd7"
            "b39d638fb81ca52b49dc41"
        ),
        ciphertext=(
            "2097e372950a5e9383c675e89eea1c314f999159f5611344b298cda45e62843716f215f82ee66391"
            "9c64002a5c198d7878fd3f"
        ),
        aad=(
            "e4f963f015ffbb99ee3349bbaf7e8e8e6c2a71c230a48f9d59860a29091d2747e01a5ca572347e24"
            "7d25f56ba7ae8e05cde2be3c97931292c02370208ecd097ef692687fecf2f419d3200162a6480a57"
            "dad408a0dfeb492e2c5d"
        ),
        tag="adbecdb0d5c2224d804d2886ff9a5760",
    ),
    # --- AES-128-CCM: NIST CAVP CCMVS (DVPT, VNT)
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "DVPT128.rsp [Alen = 0, Plen = 0, Nlen = 7, Tlen = 16] Count = 15 (Result = Pass)",
        key="4bb3c4a4f893ad8c9bdc833c325d62b3",
        iv="5a8aa485c316e9",
        plaintext="",
        ciphertext="",
        tag="75d582db43ce9b13ab4b6f7f14341330",
    ),
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "DVPT128.rsp [Alen = 32, Plen = 24, Nlen = 13, Tlen = 16] Count = 225 (Result = Pass)",
        key="26511fb51fcfa75cb4b44da75a6e5a0e",
        iv="5a8aa485c316e9403aff859fbb",
        plaintext="8739b4bea1a099fe547499cbc6d1b13d849b8084c9b6acc5",
        ciphertext="50038b5fdd364ee747b70d00bd36840ece4ea19998123375",
        aad="a16a2e741f1cd9717285b6d882c1fc53655e9773761ad697a7ee6410184c7982",
        tag="c0a458bfcafa3b2609afe0f825cbf503",
    ),
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "VNT128.rsp (Alen = 32, Plen = 24, Tlen = 16) [Nlen = 11] Count = 40",
        key="e6ab9e70a4fb51b01c2e262233e64c0d",
        iv="74e689eb5af9441dd690a6",
        plaintext="ba15916733550d7aa82b2f6b117cd3f54c83ddc16cd0288a",
        ciphertext="dcc151443288f35d39ed8fae6f0ce1d1eb656f4f7fd65c0b",
        aad="42f6518ee0fbe42f28e13b4bb2eb60517b37c9744394d9143393a879c3e107c7",
        tag="16f322ce85d7c54e71ac560fd4da9651",
    ),
    # --- AES-192-CCM: NIST CAVP CCMVS (DVPT, VNT)
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "DVPT192.rsp [Alen = 0, Plen = 0, Nlen = 7, Tlen = 16] Count = 15 (Result = Pass)",
        key="4bb3c4a4f893ad8c9bdc833c325d62b3d3ad1bccf9282a65",
        iv="5a8aa485c316e9",
        plaintext="",
        ciphertext="",
        tag="17223038fa99d53681ca1beabe78d1b4",
    ),
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "DVPT192.rsp [Alen = 32, Plen = 24, Nlen = 13, Tlen = 16] Count = 225 (Result = Pass)",
        key="26511fb51fcfa75cb4b44da75a6e5a0eb8d9c8f3b906f886",
        iv="5a8aa485c316e9403aff859fbb",
        plaintext="8739b4bea1a099fe547499cbc6d1b13d849b8084c9b6acc5",
        ciphertext="c5b0b2ef17498c5570eb335df4588032958ba3d69bf6f317",
        aad="a16a2e741f1cd9717285b6d882c1fc53655e9773761ad697a7ee6410184c7982",
        tag="8464a6f7fa2b76744e8e8d95691cecb8",
    ),
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "VNT192.rsp (Alen = 32, Plen = 24, Tlen = 16) [Nlen = 11] Count = 40",
        key="af84c6f302c59aeee6d5728ed5da2e3c64a5a781c52c4d1b",
        iv="df990c42a268950677c433",
        plaintext="6db41aeb5f7c24df8929dbc30483b3c7934b3bd1cdce5bb9",
        ciphertext="8c9328258bf71970d33e23a3ff81cc1c9cbe196a1294264b",
        aad="a6ab5d78427f297a4b7e21f1091ff3a5b20caa3fe1cbcb09459d9df596a6c8e1",
        tag="fd6a7255e4801963bb30a63de3fc5b82",
    ),
    # --- AES-256-CCM: NIST CAVP CCMVS (DVPT, VNT)
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "DVPT256.rsp [Alen = 0, Plen = 0, Nlen = 7, Tlen = 16] Count = 15 (Result = Pass)",
        key="e1b8a927a95efe94656677b692662000278b441c79e879dd5c0ddc758bdc9ee8",
        iv="a544218dadd3c1",
        plaintext="",
        ciphertext="",
        tag="8207eb14d33855a52acceed17dbcbf6e",
    ),
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "DVPT256.rsp [Alen = 32, Plen = 24, Nlen = 13, Tlen = 16] Count = 225 (Result = Pass)",
        key="314a202f836f9f257e22d8c11757832ae5131d357a72df88f3eff0ffcee0da4e",
        iv="a544218dadd3c10583db49cf39",
        plaintext="e8de970f6ee8e80ede933581b5bcf4d837e2b72baa8b00c3",
        ciphertext="8d34cdca37ce77be68f65baf3382e31efa693e63f914a781",
        aad="3c0e2815d37d844f7ac240ba9d6e3a0b2a86f706e885959e09a1005e024f6907",
        tag="367f30f2eaad8c063ca50795acd90203",
    ),
    Vector(
        "AES",
        "CCM",
        _CAVP_CCM,
        "VNT256.rsp (Alen = 32, Plen = 24, Tlen = 16) [Nlen = 11] Count = 40",
        key="97bc7482a87ba005475dfa3448f59d4b3f9c4c969d08b39b1b21ef965c0f5125",
        iv="0bcf78103ec52d6df28887",
        plaintext="b99bf4dc781795fc4d3a8467b06e1665d4e543657f23129f",
        ciphertext="0d3891fa0caac1f7ebe41b480920ffd34d4155064c24f3b1",
        aad="049c10f0cb37ae08eae2d0766563b7c5a8454f841c2061a4f71a0a2158ae6ce5",
        tag="7a483163dd8f228d1f20cd4f86cf38fd",
    ),
    # --- AES-128-OCB: RFC 7253 appendix A
    Vector(
        "AES",
        "OCB",
        _RFC7253,
        "rfc7253.txt COUNT = 0 (RFC 7253 appendix A, nonce BBAA99887766554433221100)",
        key="000102030405060708090a0b0c0d0e0f",
        iv="bbaa99887766554433221100",
        plaintext="",
        ciphertext="",
        tag="785407bfffc8ad9edcc5520ac9111ee6",
    ),
    Vector(
        "AES",
        "OCB",
        _RFC7253,
        "rfc7253.txt COUNT = 3 (RFC 7253 appendix A, nonce BBAA99887766554433221103)",
        key="000102030405060708090a0b0c0d0e0f",
        iv="bbaa99887766554433221103",
        plaintext="0001020304050607",
        ciphertext="45dd69f8f5aae724",
        tag="14054cd1f35d82760b2cd00d2f99bfa9",
    ),
    Vector(
        "AES",
        "OCB",
        _RFC7253,
        "rfc7253.txt COUNT = 7 (RFC 7253 appendix A, nonce BBAA99887766554433221107)",
        key="000102030405060708090a0b0c0d0e0f",
        iv="bbaa99887766554433221107",
        plaintext="000102030405060708090a0b0c0d0e0f1011121314151617",
        ciphertext="1ca2207308c87c010756104d8840ce1952f09673a448a122",
        aad="000102030405060708090a0b0c0d0e0f1011121314151617",
        tag="c92c62241051f57356d7f3c90bb0e07f",
    ),
    Vector(
        "AES",
        "OCB",
        _RFC7253,
        "rfc7253.txt COUNT = 15 (RFC 7253 appendix A, nonce BBAA9988776655443322110F)",
        key="000102030405060708090a0b0c0d0e0f",
        iv="bbaa9988776655443322110f",
        plaintext=(
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021222324252627"
        ),
        ciphertext=(
            "4412923493c57d5de0d700f753cce0d1d2d95060122e9f15a5ddbfc5787e50b5cc55ee507bcb084e"
        ),
        tag="479ad363ac366b95a98ca5f3000b1479",
    ),
    # --- AES-SIV: RFC 5297 A.1 and OpenSSL's 192/256-bit variants (AD passed as the nonce)
    Vector(
        "AES",
        "SIV",
        _SIV,
        "SIV/openssl.txt COUNT = 0 (RFC 5297 A.1)",
        key="fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
        plaintext="112233445566778899aabbccddee",
        ciphertext="40c02b9690c4dc04daef7f6afe5c",
        aad="101112131415161718191a1b1c1d1e1f2021222324252627",
        tag="85632d07c6e8f37f950acd320a2ecc93",
    ),
    Vector(
        "AES",
        "SIV",
        _SIV,
        "SIV/openssl.txt COUNT = 2 (A.1's AD and plaintext with a longer key)",
        key=(
            "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfefffffefdfcfbfaf9f8"
            "f7f6f5f4f3f2f1f0"
        ),
        plaintext="112233445566778899aabbccddee",
        ciphertext="eff356e42dec1f4febded36642f2",
        aad="101112131415161718191a1b1c1d1e1f2021222324252627",
        tag="89e869b93256785154f0963962fe0740",
    ),
    Vector(
        "AES",
        "SIV",
        _SIV,
        "SIV/openssl.txt COUNT = 3 (A.1's AD and plaintext with a longer key)",
        key=(
            "fffefdfcfbfaf9f8f7f6f5f4f3f2f1f0f0f1f2f3f4f5f6f7f8f9fafbfcfdfefff0f1f2f3f4f5f6f7"
            "f8f9fafbfcfdfefffffefdfcfbfaf9f8f7f6f5f4f3f2f1f0"
        ),
        plaintext="112233445566778899aabbccddee",
        ciphertext="f3b05a55498ec2552690b89810e4",
        aad="101112131415161718191a1b1c1d1e1f2021222324252627",
        tag="724dfb2eaf94dbb19b0ba3a299a0801e",
    ),
    # --- AES-SIV, 256-bit key: Wycheproof aes_siv_cmac_test.json
    Vector(
        "AES",
        "SIV",
        _WYCHEPROOF_SIV,
        "aes_siv_cmac_test.json tcId 3 (keySize 256, result valid)",
        key="e40992eb4f649e5d49134652aecc24bafa6b45ce8dd9e9d371ede7d5de84fa72",
        plaintext="",
        ciphertext="",
        aad="8268c5194a71aed0fc1dafe3",
        tag="92bc07ee200fbd488b7f70a10da26a21",
    ),
    Vector(
        "AES",
        "SIV",
        _WYCHEPROOF_SIV,
        "aes_siv_cmac_test.json tcId 26 (keySize 256, result valid)",
        key="b3b7c2c6d3d80918218afcd8bf2a71cf0220e2e8084ead8ba1abfb893ae36d40",
        plaintext="dbcf98254157727c35f367fe6e15a2d089",
        ciphertext="9f41adc6d5d877e808fbf15ed4117b5007",
        aad="a5c2f6cf309f29c25f5ce35d",
        tag="96bf5dd0c28dbd6072b70e2b5b72d3eb",
    ),
    # --- AES-SIV, 384-bit key: Wycheproof aes_siv_cmac_test.json
    Vector(
        "AES",
        "SIV",
        _WYCHEPROOF_SIV,
        "aes_siv_cmac_test.json tcId 158 (keySize 384, result valid)",
        key=(
            "ba783a715ff6ee6d71e3a4a7adb6356687db12cc2954807099f97471c951c7f0c33571d3334d111c"
            "4ea33a12365c0061"
        ),
        plaintext="7e",
        ciphertext="1d",
        aad="06b2cd261a3508a7bfd1c049",
        tag="002abeac978f66d934b9ed06f215c495",
    ),
    Vector(
        "AES",
        "SIV",
        _WYCHEPROOF_SIV,
        "aes_siv_cmac_test.json tcId 173 (keySize 384, result valid)",
        key=(
            "80d50fafb3ede5ddbb5058827303a098bf213e47dcff12ea5338a2a0f914d84bff58c8c69c3b151d"
            "6dc380fd8f3e4178"
        ),
        plaintext="340612da2d2dbbd25d7fa05c775a6ecfa8",
        ciphertext="a4a1b3f5014f42f84a21ca45727f4b4339",
        aad="b49b12ba140fa8d794a31738",
        tag="adc724b7fabbad1036ded152b968e557",
    ),
    # --- AES-SIV, 512-bit key: Wycheproof aes_siv_cmac_test.json
    Vector(
        "AES",
        "SIV",
        _WYCHEPROOF_SIV,
        "aes_siv_cmac_test.json tcId 297 (keySize 512, result valid)",
        key=(
            "aff6388fdd2908e0c3b610e3dcd410c8146a268d6befd5c45ffdd23508b5b311cc3a9d8f838f4564"
            "36b289018682151dd57d8d65d1a823c06eca8ab8ee01da01"
        ),
        plaintext="",
        ciphertext="",
        aad="d0bb2949a411e22d32964526",
        tag="e288d802a0e56ed7544a2e5775459389",
    ),
    Vector(
        "AES",
        "SIV",
        _WYCHEPROOF_SIV,
        "aes_siv_cmac_test.json tcId 320 (keySize 512, result valid)",
        key=(
            "139383f3f82dc78e0b380027f9e5fcd2ed23716404be5c554452e4dc73d237026594491820c6b829"
            "7185cc1fa84f49a5c7d7cd05c5de090ff1c3397bc2740437"
        ),
        plaintext="48604944a80fadf50d55b87727934458c8",
        ciphertext="476e2ec2317cb6b8dd8b6172fdceabff9d",
        aad="d39da73ffc03ad0a9213ffc7",
        tag="a9cf73951cb39823777f35c96c845169",
    ),
    # --- AES-128-GCM-SIV: RFC 8452 appendix C
    Vector(
        "AES",
        "GCM-SIV",
        _RFC8452,
        "GCM-SIV/openssl.txt COUNT = 0",
        key="01000000000000000000000000000000",
        iv="030000000000000000000000",
        plaintext="0100000000000000",
        ciphertext="b5d839330ac7b786",
        tag="578782fff6013b815b287c22493a364c",
    ),
    Vector(
        "AES",
        "GCM-SIV",
        _RFC8452,
        "GCM-SIV/openssl.txt COUNT = 6",
        key="01000000000000000000000000000000",
        iv="030000000000000000000000",
        plaintext="0200000000000000",
        ciphertext="1e6daba35669f427",
        aad="01",
        tag="3b0a1a2560969cdf790d99759abd1508",
    ),
    Vector(
        "AES",
        "GCM-SIV",
        _RFC8452,
        "GCM-SIV/openssl.txt COUNT = 21",
        key="f901cfe8a69615a93fdf7a98cad48179",
        iv="6245709fb18853f68d833640",
        plaintext="e42a3c02c25b64869e146d7b233987bddfc240871d",
        ciphertext="391cc328d484a4f46406181bcd62efd9b3ee197d05",
        aad="7576f7028ec6eb5ea7e298342a94d4b202b370ef9768ec6561c4fe6b7e7296fa859c21",
        tag="2d15506c84a9edd65e13e9d24a2a6e70",
    ),
    # --- AES-256-GCM-SIV: RFC 8452 appendix C
    Vector(
        "AES",
        "GCM-SIV",
        _RFC8452,
        "GCM-SIV/openssl.txt COUNT = 22",
        key="0100000000000000000000000000000000000000000000000000000000000000",
        iv="030000000000000000000000",
        plaintext="0100000000000000",
        ciphertext="c2ef328e5c71c83b",
        tag="843122130f7364b761e0b97427e3df28",
    ),
    Vector(
        "AES",
        "GCM-SIV",
        _RFC8452,
        "GCM-SIV/openssl.txt COUNT = 28",
        key="0100000000000000000000000000000000000000000000000000000000000000",
        iv="030000000000000000000000",
        plaintext="0200000000000000",
        ciphertext="1de22967237a8132",
        aad="01",
        tag="91213f267e3b452f02d01ae33e4ec854",
    ),
    Vector(
        "AES",
        "GCM-SIV",
        _RFC8452,
        "GCM-SIV/openssl.txt COUNT = 45",
        key="0000000000000000000000000000000000000000000000000000000000000000",
        iv="000000000000000000000000",
        plaintext="eb3640277c7ffd1303c7a542d02d3e4c0000000000000000",
        ciphertext="18ce4f0b8cb4d0cac65fea8f79257b20888e53e72299e56d",
        tag="ffffffff000000000000000000000000",
    ),
    # --- AES-128-EAX: Bellare, Rogaway, Wagner, 'The EAX Mode of Operation', appendix
    Vector(
        "AES",
        "EAX",
        _EAX_PAPER,
        "appendix test vector 1 of 10 (via pycryptodome test_EAX.py TestVectorsPaper)",
        key="233952dee4d5ed5f9b9c6d6ff80ff478",
        iv="62ec67f9c3a4a407fcb2a8c49031a8b3",
        plaintext="",
        ciphertext="",
        aad="6bfb914fd07eae6b",
        tag="e037830e8389f27b025a2d6527e79d01",
    ),
    Vector(
        "AES",
        "EAX",
        _EAX_PAPER,
        "appendix test vector 2 of 10 (via pycryptodome test_EAX.py TestVectorsPaper)",
        key="91945d3f4dcbee0bf45ef52255f095a4",
        iv="becaf043b0a23d843194ba972c66debd",
        plaintext="f7fb",
        ciphertext="19dd",
        aad="fa3bfd4806eb53fa",
        tag="5c4c9331049d0bdab0277408f67967e5",
    ),
    Vector(
        "AES",
        "EAX",
        _EAX_PAPER,
        "appendix test vector 6 of 10 (via pycryptodome test_EAX.py TestVectorsPaper)",
        key="bd8e6e11475e60b268784c38c62feb22",
        iv="6eac5c93072d8e8513f750935e46da1b",
        plaintext="4de3b35c3fc039245bd1fb7d",
        ciphertext="835bb4f15d743e350e728414",
        aad="d4482d1ca78dce0f",
        tag="abb8644fd6ccb86947c5e10590210a4f",
    ),
    Vector(
        "AES",
        "EAX",
        _EAX_PAPER,
        "appendix test vector 10 of 10 (via pycryptodome test_EAX.py TestVectorsPaper)",
        key="8395fcf1e95bebd697bd010bc766aac3",
        iv="22e7add93cfc6393c57ec0b3c17d6b44",
        plaintext="ca40d7446e545ffaed3bd12a740a659ffbbb3ceab7",
        ciphertext="cb8920f87a6c75cff39627b56e3ed197c552d295a7",
        aad="126735fcc320d25a",
        tag="cfc46afc253b4652b1af3795b124ab6e",
    ),
    # --- AES-192-EAX: Wycheproof aes_eax_test.json
    Vector(
        "AES",
        "EAX",
        _WYCHEPROOF_EAX,
        "aes_eax_test.json tcId 76 (keySize 192, result valid)",
        key="cee9abbc26b63e169f0ced621fe21d95904e75b881d93e6b",
        iv="1e8259e0a43e571068f701cd2064fc0c",
        plaintext="46",
        ciphertext="1d",
        tag="902249b563e6a8a63bb3bb6ee7696951",
    ),
    Vector(
        "AES",
        "EAX",
        _WYCHEPROOF_EAX,
        "aes_eax_test.json tcId 78 (keySize 192, result valid)",
        key="2bc95c03e9c5b4b95e30fb597f7ea6dd1e8eaa68940da236",
        iv="a2357e33ef9992be34144d2e7e043275",
        plaintext="3aa230f4526b82ff6ebc0b3b54e61016ad459ca86899",
        ciphertext="a4d87792b61883322716b345f9c29b5a12a10441d5e4",
        tag="1cda87ea66dfc34a8d2558c001992863",
    ),
    Vector(
        "AES",
        "EAX",
        _WYCHEPROOF_EAX,
        "aes_eax_test.json tcId 82 (keySize 192, result valid)",
        key="a90bd7b87c03803fe77291483954578c07849fb273a52243",
        iv="0c300db1fbf94c6ae9a36e5ae4bbb906",
        plaintext="644b8ee3162e81b0d59792d3386cc30c",
        ciphertext="e286ad3f23d2d5742b043ba2c18a73d1",
        aad="8cdec329f05a3e2964ea9426430dfe40ce7f40a6fc429b33",
        tag="9252f1b2ea6946fa42b2e86cc7bd5114",
    ),
    # --- AES-256-EAX: Wycheproof aes_eax_test.json
    Vector(
        "AES",
        "EAX",
        _WYCHEPROOF_EAX,
        "aes_eax_test.json tcId 110 (keySize 256, result valid)",
        key="b4cd11db0b3e0b9b34eafd9fe027746976379155e76116afde1b96d21298e34f",
        iv="00c49f4ebb07393f07ebc3825f7b0830",
        plaintext="",
        ciphertext="",
        tag="80d821cde2d6c523b718597b11dd0fa8",
    ),
    Vector(
        "AES",
        "EAX",
        _WYCHEPROOF_EAX,
        "aes_eax_test.json tcId 113 (keySize 256, result valid)",
        key="2f6cfb7a215a7bafb607c273f7e66f9a6d51d57f9c29422ec64699bad0c6f33b",
        iv="21cbeff0b123799da74f4daff2e279c5",
        plaintext="39dbc71f6838ed6c6e582137436e1c61bbbfb80531f4",
        ciphertext="f531097aa1bb35d9f401d459340afbd27f9bdf72c537",
        tag="e4e18170dce4e1af90b15eae64355331",
    ),
    Vector(
        "AES",
        "EAX",
        _WYCHEPROOF_EAX,
        "aes_eax_test.json tcId 117 (keySize 256, result valid)",
        key="ec88cec13d8ebae7d62f60197e5486d61c33ee5a50b19f197c1348fbc9e27e8e",
        iv="1ec1d18c96ca6cad66690e60b91cf222",
        plaintext="658c6c7d8ea64a48375d69d9a405095a",
        ciphertext="e42b53912ce21a3ee7a1fb51194d6fe3",
        aad="d28d5811d4168a08da54b97831b59200041adb0e2891ea91",
        tag="2bc8cc7f42cac1a121fd9ddff4f2073c",
    ),
    # --- ChaCha20: RFC 7539 (RFC 8439) appendix A.2; IV = LE32(counter) || nonce
    Vector(
        "ChaCha20",
        "Stream",
        _RFC7539,
        "ChaCha20/rfc7539.txt COUNT = 0 (appendix A.2 test vector #1, initial block counter 0)",
        key="0000000000000000000000000000000000000000000000000000000000000000",
        iv="00000000000000000000000000000000",
        plaintext=(
            "00000000000000000000000000000000000000000000000000000000000000000000000000000000"
            "000000000000000000000000000000000000000000000000"
        ),
        ciphertext=(
            "76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7da41597c5157488d"
            "7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586"
        ),
    ),
    Vector(
        "ChaCha20",
        "Stream",
        _RFC7539,
        "ChaCha20/rfc7539.txt COUNT = 1 (appendix A.2 test vector #2, initial block counter 1)",
        key="0000000000000000000000000000000000000000000000000000000000000001",
        iv="01000000000000000000000000000002",
        plaintext=(
            "416e79207375626d697373696f6e20746f20746865204945544620696e74656e6465642062792074"
            "686520436f6e7472696275746f7220666f72207075626c69636174696f6e20617320616c6c206f72"
            "2070617274206f6620616e204945544620496e7465726e65742d4472616674206f72205246432061"
            "6e6420616e792073746174656d656e74206d6164652077697468696e2074686520636f6e74657874"
            "206f6620616e204945544620616374697669747920697320636f6e7369646572656420616e202249"
            "45544620436f6e747269627574696f6e222e20537563682073746174656d656e747320696e636c75"
            "6465206f72616c2073746174656d656e747320696e20494554462073657373696f6e732c20617320"
            "77656c6c206173207772697474656e20616e6420656c656374726f6e696320636f6d6d756e696361"
            "74696f6e73206d61646520617420616e792074696d65206f7220706c6163652c2077686963682061"
            "72652061646472657373656420746f"
        ),
        ciphertext=(
            "a3fbf07df3fa2fde4f376ca23e82737041605d9f4f4f57bd8cff2c1d4b7955ec2a97948bd3722915"
            "c8f3d337f7d370050e9e96d647b7c39f56e031ca5eb6250d4042e02785ececfa4b4bb5e8ead0440e"
            "20b6e8db09d881a7c6132f420e52795042bdfa7773d8a9051447b3291ce1411c680465552aa6c405"
            "b7764d5e87bea85ad00f8449ed8f72d0d662ab052691ca66424bc86d2df80ea41f43abf937d3259d"
            "c4b2d0dfb48a6c9139ddd7f76966e928e635553ba76c5c879d7b35d49eb2e62b0871cdac638939e2"
            "5e8a1e0ef9d5280fa8ca328b351c3c765989cbcf3daa8b6ccc3aaf9f3979c92b3720fc88dc95ed84"
            "a1be059c6499b9fda236e7e818b04b0bc39c1e876b193bfe5569753f88128cc08aaa9b63d1a16f80"
            "ef2554d7189c411f5869ca52c5b83fa36ff216b9c1d30062bebcfd2dc5bce0911934fda79a86f6e6"
            "98ced759c3ff9b6477338f3da4f9cd8514ea9982ccafb341b2384dd902f3d1ab7ac61dd29c6f21ba"
            "5b862f3730e37cfdc4fd806c22f221"
        ),
    ),
    Vector(
        "ChaCha20",
        "Stream",
        _RFC7539,
        "ChaCha20/rfc7539.txt COUNT = 2 (appendix A.2 test vector #3, initial block counter 42)",
        key="1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
        iv="2a000000000000000000000000000002",
        plaintext=(
            "2754776173206272696c6c69672c20616e642074686520736c6974687920746f7665730a44696420"
            "6779726520616e642067696d626c6520696e2074686520776162653a0a416c6c206d696d73792077"
            "6572652074686520626f726f676f7665732c0a416e6420746865206d6f6d65207261746873206f75"
            "7467726162652e"
        ),
        ciphertext=(
            "62e6347f95ed87a45ffae7426f27a1df5fb69110044c0d73118effa95b01e5cf166d3df2d721caf9"
            "b21e5fb14c616871fd84c54f9d65b283196c7fe4f60553ebf39c6402c42234e32a356b3e764312a6"
            "1a5532055716ead6962568f87d3f3f7704c6a8d1bcd1bf4d50d6154b6da731b187b58dfd728afa36"
            "757a797ac188d1"
        ),
    ),
    # --- ChaCha20-Poly1305: RFC 7539 section 2.8.2 and appendix A.5, BoringSSL
    Vector(
        "ChaCha20-Poly1305",
        "AEAD",
        _RFC7539,
        "ChaCha20Poly1305/boringssl.txt COUNT = 1 (RFC 7539 section 2.8.2; the file's"
        " comment says 2.8.1)",
        key="808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
        iv="070000004041424344454647",
        plaintext=(
            "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f6620273939"
            "3a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220"
            "746865206675747572652c2073756e73637265656e20776f756c642062652069742e"
        ),
        ciphertext=(
            "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca96712"
            "82fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58"
            "fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116"
        ),
        aad="50515253c0c1c2c3c4c5c6c7",
        tag="1ae10b594f09e26a7e902ecbd0600691",
    ),
    Vector(
        "ChaCha20-Poly1305",
        "AEAD",
        _BORINGSSL_CCP,
        "ChaCha20Poly1305/boringssl.txt COUNT = 7 (BoringSSL, empty plaintext and AD)",
        key="9a97f65b9b4c721b960a672145fca8d4e32e67f9111ea979ce9c4826806aeee6",
        iv="000000003de9c0da2bd7f91e",
        plaintext="",
        ciphertext="",
        tag="5a6e21f4ba6dbee57380e79e79c30def",
    ),
    Vector(
        "ChaCha20-Poly1305",
        "AEAD",
        _RFC7539,
        "ChaCha20Poly1305/openssl.txt COUNT = 1 (RFC 7539 appendix A.5)",
        key="1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
        iv="000000000102030405060708",
        plaintext=(
            "496e7465726e65742d4472616674732061726520647261667420646f63756d656e74732076616c69"
            "6420666f722061206d6178696d756d206f6620736978206d6f6e74687320616e64206d6179206265"
            "20757064617465642c207265706c616365642c206f72206f62736f6c65746564206279206f746865"
            "7220646f63756d656e747320617420616e792074696d652e20497420697320696e617070726f7072"
            "6961746520746f2075736520496e7465726e65742d447261667473206173207265666572656e6365"
            "206d6174657269616c206f7220746f2063697465207468656d206f74686572207468616e20617320"
            "2fe2809c776f726b20696e2070726f67726573732e2fe2809d"
        ),
        ciphertext=(
            "64a0861575861af460f062c79be643bd5e805cfd345cf389f108670ac76c8cb24c6cfc18755d43ee"
            "a09ee94e382d26b0bdb7b73c321b0100d4f03b7f355894cf332f830e710b97ce98c8a84abd0b9481"
            "14ad176e008d33bd60f982b1ff37c8559797a06ef4f0ef61c186324e2b3506383606907b6a7c02b0"
            "f9f6157b53c867e4b9166c767b804d46a59b5216cde7a4e99040c5a40433225ee282a1b0a06c523e"
            "af4534d7f83fa1155b0047718cbc546a0d072b04b3564eea1b422273f548271a0bb2316053fa7699"
            "1955ebd63159434ecebb4e466dae5a1073a6727627097a1049e617d91d361094fa68f0ff77987130"
            "305beaba2eda04df997b714d6c6f2c29a6ad5cb4022b02709b"
        ),
        aad="f33388860000000000004e91",
        tag="eead9d67890cbb22392336fea1851f38",
    ),
    # --- XChaCha20-Poly1305: draft-irtf-cfrg-xchacha-03 section A.3.1
    Vector(
        "XChaCha20-Poly1305",
        "AEAD",
        _XCHACHA,
        "section A.3.1 (via pycryptodome test_ChaCha20_Poly1305.py TestXChaCha20Poly1305)",
        key="808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f",
        iv="404142434445464748494a4b4c4d4e4f5051525354555657",
        plaintext=(
            "4c616469657320616e642047656e746c656d656e206f662074686520636c617373206f6620273939"
            "3a204966204920636f756c64206f6666657220796f75206f6e6c79206f6e652074697020666f7220"
            "746865206675747572652c2073756e73637265656e20776f756c642062652069742e"
        ),
        ciphertext=(
            "bd6d179d3e83d43b9576579493c0e939572a1700252bfaccbed2902c21396cbb731c7f1b0b4aa644"
            "0bf3a82f4eda7e39ae64c6708c54c216cb96b72e1213b4522f8c9ba40db5d945b11b69b982c1bb9e"
            "3f3fac2bc369488f76b2383565d3fff921f9664c97637da9768812f615c68b13b52e"
        ),
        aad="50515253c0c1c2c3c4c5c6c7",
        tag="c0875924c1c7987947deafd8780acf49",
    ),
    # --- Blowfish ECB: Eric Young's vectors (schneier.com vectors-2.txt), bf-ecb.txt
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 0 (ecb test data)",
        key="0000000000000000",
        plaintext="0000000000000000",
        ciphertext="4ef997456198dd78",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 7 (ecb test data)",
        key="fedcba9876543210",
        plaintext="0123456789abcdef",
        ciphertext="0aceab0fc6a0a28d",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 24 (ecb test data)",
        key="49e95d6d4ca229bf",
        plaintext="02fe55778117f12a",
        ciphertext="cf9c5d7a4986adb5",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 37 (set_key test, 4-byte key)",
        key="f0e1d2c3",
        plaintext="fedcba9876543210",
        ciphertext="be1e639408640f05",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 38 (set_key test, 5-byte key)",
        key="f0e1d2c3b4",
        plaintext="fedcba9876543210",
        ciphertext="b39e44481bdb1e6e",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 39 (set_key test, 6-byte key)",
        key="f0e1d2c3b4a5",
        plaintext="fedcba9876543210",
        ciphertext="9457aa83b1928c0d",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 40 (set_key test, 7-byte key)",
        key="f0e1d2c3b4a596",
        plaintext="fedcba9876543210",
        ciphertext="8bb77032f960629d",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 41 (set_key test, 8-byte key)",
        key="f0e1d2c3b4a59687",
        plaintext="fedcba9876543210",
        ciphertext="e87a244e2cc85e82",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 42 (set_key test, 9-byte key)",
        key="f0e1d2c3b4a5968778",
        plaintext="fedcba9876543210",
        ciphertext="15750e7a4f4ec577",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 43 (set_key test, 10-byte key)",
        key="f0e1d2c3b4a596877869",
        plaintext="fedcba9876543210",
        ciphertext="122ba70b3ab64ae0",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 44 (set_key test, 11-byte key)",
        key="f0e1d2c3b4a5968778695a",
        plaintext="fedcba9876543210",
        ciphertext="3a833c9affc537f6",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 45 (set_key test, 12-byte key)",
        key="f0e1d2c3b4a5968778695a4b",
        plaintext="fedcba9876543210",
        ciphertext="9409da87a90f6bf2",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 46 (set_key test, 13-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c",
        plaintext="fedcba9876543210",
        ciphertext="884f80625060b8b4",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 47 (set_key test, 14-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d",
        plaintext="fedcba9876543210",
        ciphertext="1f85031c19e11968",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 48 (set_key test, 15-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e",
        plaintext="fedcba9876543210",
        ciphertext="79d9373a714ca34f",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 49 (set_key test, 16-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f",
        plaintext="fedcba9876543210",
        ciphertext="93142887ee3be15c",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 50 (set_key test, 17-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f00",
        plaintext="fedcba9876543210",
        ciphertext="03429e838ce2d14b",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 51 (set_key test, 18-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f0011",
        plaintext="fedcba9876543210",
        ciphertext="a4299e27469ff67b",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 52 (set_key test, 19-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f001122",
        plaintext="fedcba9876543210",
        ciphertext="afd5aed1c1bc96a8",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 53 (set_key test, 20-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f00112233",
        plaintext="fedcba9876543210",
        ciphertext="10851c0e3858da9f",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 54 (set_key test, 21-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f0011223344",
        plaintext="fedcba9876543210",
        ciphertext="e6f51ed79b9db21f",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 55 (set_key test, 22-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f001122334455",
        plaintext="fedcba9876543210",
        ciphertext="64a6e14afd36b46f",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 56 (set_key test, 23-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f00112233445566",
        plaintext="fedcba9876543210",
        ciphertext="80c7d7d45a5479ad",
    ),
    Vector(
        "Blowfish",
        "ECB",
        _BLOWFISH,
        "Blowfish/bf-ecb.txt COUNT = 57 (set_key test, 24-byte key)",
        key="f0e1d2c3b4a5968778695a4b3c2d1e0f0011223344556677",
        plaintext="fedcba9876543210",
        ciphertext="05044b62fa52d080",
    ),
    # --- Blowfish CBC: Eric Young's vectors, bf-cbc.txt
    Vector(
        "Blowfish",
        "CBC",
        _BLOWFISH,
        "Blowfish/bf-cbc.txt COUNT = 0 (plaintext zero-filled to whole blocks)",
        key="0123456789abcdeff0e1d2c3b4a59687",
        iv="fedcba9876543210",
        plaintext="37363534333231204e6f77206973207468652074696d6520666f722000000000",
        ciphertext="6b77b4d63006dee605b156e27403979358deb9e7154616d959f1652bd5ff92cc",
    ),
    # --- Blowfish CFB: Eric Young's vectors, bf-cfb.txt
    Vector(
        "Blowfish",
        "CFB",
        _BLOWFISH,
        "Blowfish/bf-cfb.txt COUNT = 0",
        key="0123456789abcdeff0e1d2c3b4a59687",
        iv="fedcba9876543210",
        plaintext="37363534333231204e6f77206973207468652074696d6520666f722000",
        ciphertext="e73214a2822139caf26ecf6d2eb9e76e3da3de04d1517200519d57a6c3",
    ),
    # --- Blowfish OFB: Eric Young's vectors, bf-ofb.txt
    Vector(
        "Blowfish",
        "OFB",
        _BLOWFISH,
        "Blowfish/bf-ofb.txt COUNT = 0",
        key="0123456789abcdeff0e1d2c3b4a59687",
        iv="fedcba9876543210",
        plaintext="37363534333231204e6f77206973207468652074696d6520666f722000",
        ciphertext="e73214a2822139ca62b343cc5b65587310dd908d0c241b2263c2cf80da",
    ),
    # --- 3DES ECB: NIST CAVP TDES MMT (keying options 2 and 3), TECBMMT*.rsp
    Vector(
        "3DES",
        "ECB",
        _CAVP_TDES,
        "3DES/ECB/TECBMMT2.rsp [ENCRYPT] COUNT = 0",
        key="ad192fd064b5579e7a4fb3c8f794f22aad192fd064b5579e",
        plaintext="13bad542f3652d67",
        ciphertext="908e543cf2cb254f",
    ),
    Vector(
        "3DES",
        "ECB",
        _CAVP_TDES,
        "3DES/ECB/TECBMMT3.rsp [ENCRYPT] COUNT = 1",
        key="49e692290d2a5e46bace79b9648a4c5d491004c262dc9d49",
        plaintext="6b1540781b01ce1997adae102dbf3c5b",
        ciphertext="4d0dc182d6e481ac4a3dc6ab6976ccae",
    ),
    Vector(
        "3DES",
        "ECB",
        _CAVP_TDES,
        "3DES/ECB/TECBMMT3.rsp [ENCRYPT] COUNT = 9",
        key="df20ae3d54858013514367024f7a7ad529d979f71abfd5f1",
        plaintext=(
            "f0fa379f7e507d3d97674fc3538b19fd1b1034f0b1410b6e70997de7d63683823f8a136cf3544470"
            "63ceb2c9b02824346d366c49a6668f0a21f426bde36104f7f62119fa6a9496409a375258b11c6df1"
        ),
        ciphertext=(
            "ce9233ba7cbbc0f8ff3cf7d6ff70940012ef58aad5c86399fe0a8216c96e4192deff426946b03ae2"
            "374d7fd1d9a5933bac7878044ac217649f51fdaaaa915d01125f0dcbe9ed1ca6aba83314f8e861b1"
        ),
    ),
    # --- 3DES CBC: NIST CAVP TDES MMT (keying options 2 and 3), TCBCMMT*.rsp
    Vector(
        "3DES",
        "CBC",
        _CAVP_TDES,
        "3DES/CBC/TCBCMMT2.rsp [ENCRYPT] COUNT = 0",
        key="34a41a8c293176c1b30732ecfe38ae8a34a41a8c293176c1",
        iv="f55b4855228bd0b4",
        plaintext="7dd880d2a9ab411c",
        ciphertext="c91892948b6cadb4",
    ),
    Vector(
        "3DES",
        "CBC",
        _CAVP_TDES,
        "3DES/CBC/TCBCMMT3.rsp [ENCRYPT] COUNT = 1",
        key="a49d7564199e97cb529d2c9d97bf2f98d35edf57ba1f7358",
        iv="c2e999cb6249023c",
        plaintext="c689aee38a301bb316da75db36f110b5",
        ciphertext="e9afaba5ec75ea1bbe65506655bb4ecb",
    ),
    Vector(
        "3DES",
        "CBC",
        _CAVP_TDES,
        "3DES/CBC/TCBCMMT3.rsp [ENCRYPT] COUNT = 9",
        key="9b162a0df8ad9b61c88676e3d586434570b902f12a2046e0",
        iv="ebd6fefe029ad54b",
        plaintext=(
            "f4c1c918e77355c8156f0fd778da52bff121ae5f2f44eaf4d2754946d0e10d1f18ce3a0176e69c18"
            "b7d20b6e0d0bee5eb5edfe4bd60e4d92adcd86bce72e76f94ee5cbcaa8b01cfddcea2ade575e66ac"
        ),
        ciphertext=(
            "1ff3c8709f403a8eff291aedf50c010df5c5ff64a8b205f1fce68564798897a390db16ee0d053856"
            "b75898009731da290fcc119dad987277aacef694872e880c4bb41471063fae05c89f25e4bd0cad6a"
        ),
    ),
    # --- 3DES CFB: NIST CAVP TDES MMT (keying options 2 and 3), TCFB64MMT*.rsp
    Vector(
        "3DES",
        "CFB",
        _CAVP_TDES,
        "3DES/CFB/TCFB64MMT2.rsp [ENCRYPT] COUNT = 0",
        key="195ba486c7bf6b9e2943a71cc4e0ba54195ba486c7bf6b9e",
        iv="695643ceea53105b",
        plaintext="2f12c67f03ddce74",
        ciphertext="b09d950308d69ffd",
    ),
    Vector(
        "3DES",
        "CFB",
        _CAVP_TDES,
        "3DES/CFB/TCFB64MMT3.rsp [ENCRYPT] COUNT = 1",
        key="19b55e5b26769d516143bc61f79d946452795e9d3dbad0d3",
        iv="97bfae1bd78ce0f9",
        plaintext="5f0fc5c6085d3f653ec52980a4af5b5b",
        ciphertext="744b45a196330899df78e8e778049f1d",
    ),
    Vector(
        "3DES",
        "CFB",
        _CAVP_TDES,
        "3DES/CFB/TCFB64MMT3.rsp [ENCRYPT] COUNT = 9",
        key="437cfb681a0470152998b9739efd6eefbcf108d3a749f279",
        iv="1f20f134b600a849",
        plaintext=(
            "ebb61c47a714907e81430b39128b8518c8b27a3e8814a50598f60cf0bd173ce2a088d68d76be4a2c"
            "e0e6e375107804c92e0fb1affa785080b208b16436334d7c6a5bcb61dce6c9cea793d899970ec8e8"
        ),
        ciphertext=(
            "a6e6c86d90b3bf12abbe625a9b52849ad126733ea02a8c1be0a3fe9a67d00964e45920d5673f8d12"
            "54f9911b762d440c56341b1f45c7c355427daf428dbb919f4b0f654fea9f72059b070e77b20a9d69"
        ),
    ),
    # --- 3DES OFB: NIST CAVP TDES MMT (keying options 2 and 3), TOFBMMT*.rsp
    Vector(
        "3DES",
        "OFB",
        _CAVP_TDES,
        "3DES/OFB/TOFBMMT2.rsp [ENCRYPT] COUNT = 0",
        key="f2b546fbd6d3dfa4ba2c26ba255e7a3ef2b546fbd6d3dfa4",
        iv="d88bb3a7f539d7f1",
        plaintext="824cec4211ddc264",
        ciphertext="c5f4ff499dfa5de8",
    ),
    Vector(
        "3DES",
        "OFB",
        _CAVP_TDES,
        "3DES/OFB/TOFBMMT3.rsp [ENCRYPT] COUNT = 1",
        key="3ea7f4a819d56797e683687a32b6d6610b4307238079c7e9",
        iv="e9a012252338c1ff",
        plaintext="5c632f97a983f12aa7a57bfd1ac9dbb7",
        ciphertext="deb1bbf11eebce856e506a5bc91b824b",
    ),
    Vector(
        "3DES",
        "OFB",
        _CAVP_TDES,
        "3DES/OFB/TOFBMMT3.rsp [ENCRYPT] COUNT = 9",
        key="5138e5e0622cc2523bfd52adf7c254ea152f8a6437152ac7",
        iv="6190fc0182007389",
        plaintext=(
            "da5d0b11c38c03df785533e9c85890e1eef7c26171ac28da48a01ccd427a783da575586415b622a5"
            "b8dcc4c298d83d4f49ff5f66cb5dd39db14d5d358347619462f8a7f5ea985b5f5d7858d3fddaa6ca"
        ),
        ciphertext=(
            "ff92a45638086d3a852b7a60171428514f85b13b581a5b78fee1bc8042f155540d513fdeb177e08d"
            "5c6a3c9aecbcfcdc658ca04550d13b450aefea4575e3187b608a87aed5e02e0c58bcd54ab4d9900b"
        ),
    ),
    # --- DES ECB: NIST SP 800-20 KAT and TDES MMT with KEY1 = KEY2 = KEY3
    Vector(
        "DES",
        "ECB",
        _SP800_20,
        "3DES/ECB/TECBvarkey.rsp [ENCRYPT] COUNT = 0 (KEYs: single DES)",
        key="8001010101010101",
        plaintext="0000000000000000",
        ciphertext="95a8d72813daa94d",
    ),
    Vector(
        "DES",
        "ECB",
        _SP800_20,
        "3DES/ECB/TECBvartext.rsp [ENCRYPT] COUNT = 1 (KEYs: single DES)",
        key="0101010101010101",
        plaintext="4000000000000000",
        ciphertext="dd7f121ca5015619",
    ),
    Vector(
        "DES",
        "ECB",
        _CAVP_TDES,
        "3DES/ECB/TECBMMT1.rsp [ENCRYPT] COUNT = 9 (KEY1 = KEY2 = KEY3: single DES)",
        key="1fefaddc34e65475",
        plaintext=(
            "d2bd867eccb142c0e9f7dfdeec1163182bd3e7749d2149a935fa203c6eb6f5e9288bb044b25650a0"
            "2898df30ffbfa56cdea89db6af61253ef733f92362e062dba329abd47a93d55b166b8cbe9e0859ad"
        ),
        ciphertext=(
            "be58790824ae3e8039fdece08aff5a5a3b855cd3cd61e8cf4482bf019720ee979d8098d3edf9daba"
            "eab7e4732b6c9df091f706176e9269c409507934cc944506bb72919f65acb2e213aab6a9183e1a47"
        ),
    ),
    # --- DES CBC: NIST SP 800-20 KAT and TDES MMT with KEY1 = KEY2 = KEY3
    Vector(
        "DES",
        "CBC",
        _SP800_20,
        "3DES/CBC/TCBCvarkey.rsp [ENCRYPT] COUNT = 0 (KEYs: single DES)",
        key="8001010101010101",
        iv="0000000000000000",
        plaintext="0000000000000000",
        ciphertext="95a8d72813daa94d",
    ),
    Vector(
        "DES",
        "CBC",
        _SP800_20,
        "3DES/CBC/TCBCvartext.rsp [ENCRYPT] COUNT = 1 (KEYs: single DES)",
        key="0101010101010101",
        iv="0000000000000000",
        plaintext="4000000000000000",
        ciphertext="dd7f121ca5015619",
    ),
    Vector(
        "DES",
        "CBC",
        _CAVP_TDES,
        "3DES/CBC/TCBCMMT1.rsp [ENCRYPT] COUNT = 9 (KEY1 = KEY2 = KEY3: single DES)",
        key="a4a161ad161cb0c2",
        iv="a4512edd2b9fd66c",
        plaintext=(
            "c8edf6a0bfc287f8d55e55e548982c15dabd7361d184545d43431e2d9062e79a30107565af365fda"
            "f5a96fa9cba44bf29b75549f7776cff65d3f436eba1a21c22cb8aa458c220e752cf1d1d25dc273f1"
        ),
        ciphertext=(
            "904395b6063433ee9a83976bc52c75267bc8b4971f2b99472341e70d10f98134bc05478feee78ff1"
            "26407fa1b403c62af166dc1a71b2cee7cbcaf7fa4d76134701a9baa54f733d61d2e7f16982f69720"
        ),
    ),
    # --- DES CFB: NIST SP 800-20 KAT and TDES MMT with KEY1 = KEY2 = KEY3
    Vector(
        "DES",
        "CFB",
        _SP800_20,
        "3DES/CFB/TCFB64varkey.rsp [ENCRYPT] COUNT = 0 (KEYs: single DES)",
        key="8001010101010101",
        iv="0000000000000000",
        plaintext="0000000000000000",
        ciphertext="95a8d72813daa94d",
    ),
    Vector(
        "DES",
        "CFB",
        _SP800_20,
        "3DES/CFB/TCFB64vartext.rsp [ENCRYPT] COUNT = 1 (KEYs: single DES)",
        key="0101010101010101",
        iv="4000000000000000",
        plaintext="0000000000000000",
        ciphertext="dd7f121ca5015619",
    ),
    Vector(
        "DES",
        "CFB",
        _CAVP_TDES,
        "3DES/CFB/TCFB64MMT1.rsp [ENCRYPT] COUNT = 9 (KEY1 = KEY2 = KEY3: single DES)",
        key="8ca1e580a1d62945",
        iv="ce264522ce323f1c",
        plaintext=(
            "da5f04258742e0473fff34e5d336f5b27d49cb45c4b315129f9b2d99dda8edddc4187218f90c1fad"
            "a026e55ec356c2bff8f188ea3e04e07529e78ea13f15f7d4a13ae04aee8e78076462991048f84bda"
        ),
        ciphertext=(
            "80a623eb8bee1ef83567797dfa8833f7669891670ce52ab35c9bb9a674d4513280f28cafcad4cc94"
            "831f2ea89e473bac43b7202d653bbe0cc0b8034ead85dde1966e276a3c6cbce98fefaa54b6ad59fc"
        ),
    ),
    # --- DES OFB: NIST SP 800-20 KAT and TDES MMT with KEY1 = KEY2 = KEY3
    Vector(
        "DES",
        "OFB",
        _SP800_20,
        "3DES/OFB/TOFBvarkey.rsp [ENCRYPT] COUNT = 0 (KEYs: single DES)",
        key="8001010101010101",
        iv="0000000000000000",
        plaintext="0000000000000000",
        ciphertext="95a8d72813daa94d",
    ),
    Vector(
        "DES",
        "OFB",
        _SP800_20,
        "3DES/OFB/TOFBvartext.rsp [ENCRYPT] COUNT = 1 (KEYs: single DES)",
        key="0101010101010101",
        iv="4000000000000000",
        plaintext="0000000000000000",
        ciphertext="dd7f121ca5015619",
    ),
    Vector(
        "DES",
        "OFB",
        _CAVP_TDES,
        "3DES/OFB/TOFBMMT1.rsp [ENCRYPT] COUNT = 9 (KEY1 = KEY2 = KEY3: single DES)",
        key="4a9b08d5a44a0208",
        iv="c0d583e4f3e1b0ab",
        plaintext=(
            "a58c0018a7e32377730765eab1cdd78e16e4f738395d2713a26b5e8b24681e6a6e19a641dc33680a"
            "931ebd0bccf8d8fe70ddf86ee666e264286f8f431d1e22f123211d37ea36d36b89f1214ccbba592d"
        ),
        ciphertext=(
            "8e63ec2c683b09a4abb1baf08ac03f2088532613a0693eb9eff3f6729ad2b8a556d0830bf8588e03"
            "d3f0307b0ae50cd8f7b9a4c7b93475c2f541b40708649bcf20575595a8863e599fc04d14b3e536f0"
        ),
    ),
    # --- RC4 40-bit key: RFC 6229 section 2, rfc-6229-40.txt
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-40.txt COUNT = 0, 1 (offsets 0 and 16)",
        key="0102030405",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="b2396305f03dc027ccc3524a0a1118a86982944f18fc82d589c403a47a0d0919",
    ),
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-40.txt COUNT = 16, 17 (offsets 4080 and 4096)",
        key="0102030405",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="068326a2118416d21f9d04b2cd1ca050ff25b58995996707e51fbdf08b34d875",
        offset=4080,
    ),
    # --- RC4 56-bit key: RFC 6229 section 2, rfc-6229-56.txt
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-56.txt COUNT = 0, 1 (offsets 0 and 16)",
        key="01020304050607",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="293f02d47f37c9b633f2af5285feb46be620f1390d19bd84e2e0fd752031afc1",
    ),
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-56.txt COUNT = 16, 17 (offsets 4080 and 4096)",
        key="01020304050607",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="f3172ceffc3b3d997c85ccd5af1a950ce74b0b9731227fd37c0ec08a47ddd8b8",
        offset=4080,
    ),
    # --- RC4 64-bit key: RFC 6229 section 2, rfc-6229-64.txt
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-64.txt COUNT = 0, 1 (offsets 0 and 16)",
        key="0102030405060708",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="97ab8a1bf0afb96132f2f67258da15a88263efdb45c4a18684ef87e6b19e5b09",
    ),
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-64.txt COUNT = 16, 17 (offsets 4080 and 4096)",
        key="0102030405060708",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="d5fa5a3469d29aaaf83d23589db8c85b3fb46e2c8f0f068edce8cdcd7dfc5862",
        offset=4080,
    ),
    # --- RC4 80-bit key: RFC 6229 section 2, rfc-6229-80.txt
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-80.txt COUNT = 0, 1 (offsets 0 and 16)",
        key="0102030405060708090a",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="ede3b04643e586cc907dc2185170990203516ba78f413beb223aa5d4d2df6711",
    ),
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-80.txt COUNT = 16, 17 (offsets 4080 and 4096)",
        key="0102030405060708090a",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="1f135ed14ce60a91369d2322bef25e3c08b6be45124a43e2eb77953f84dc8553",
        offset=4080,
    ),
    # --- RC4 128-bit key: RFC 6229 section 2, rfc-6229-128.txt
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-128.txt COUNT = 0, 1 (offsets 0 and 16)",
        key="0102030405060708090a0b0c0d0e0f10",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="9ac7cc9a609d1ef7b2932899cde41b975248c4959014126a6e8a84f11d1a9e1c",
    ),
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-128.txt COUNT = 16, 17 (offsets 4080 and 4096)",
        key="0102030405060708090a0b0c0d0e0f10",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="ff38265c1642c1abe8d3c2fe5e572bf8a36a4c301ae8ac13610ccbc12256cacc",
        offset=4080,
    ),
    # --- RC4 192-bit key: RFC 6229 section 2, rfc-6229-192.txt
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-192.txt COUNT = 0, 1 (offsets 0 and 16)",
        key="0102030405060708090a0b0c0d0e0f101112131415161718",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="0595e57fe5f0bb3c706edac8a4b2db11dfde31344a1af769c74f070aee9e2326",
    ),
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-192.txt COUNT = 16, 17 (offsets 4080 and 4096)",
        key="0102030405060708090a0b0c0d0e0f101112131415161718",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="29a0b8aed54a132324c62e423f54b4c83cb0f3b5020a98b82af9fe154484a168",
        offset=4080,
    ),
    # --- RC4 256-bit key: RFC 6229 section 2, rfc-6229-256.txt
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-256.txt COUNT = 0, 1 (offsets 0 and 16)",
        key="0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="eaa6bd25880bf93d3f5d1e4ca2611d91cfa45c9f7e714b54bdfa80027cb14380",
    ),
    Vector(
        "RC4",
        "Stream",
        _RFC6229,
        "rfc-6229-256.txt COUNT = 16, 17 (offsets 4080 and 4096)",
        key="0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20",
        plaintext="0000000000000000000000000000000000000000000000000000000000000000",
        ciphertext="a13a7c79c7e119b5ab0296ab28c300b9f3e4c0a2e02d1d01f7f0a74618af2b48",
        offset=4080,
    ),
    # --- Camellia-ECB: RFC 3713 appendix A; NTT's known-answer file
    Vector(
        "Camellia",
        "ECB",
        _RFC3713,
        "appendix A, 128-bit key",
        key="0123456789abcdeffedcba9876543210",
        plaintext="0123456789abcdeffedcba9876543210",
        ciphertext="67673138549669730857065648eabe43",
    ),
    Vector(
        "Camellia",
        "ECB",
        _RFC3713,
        "appendix A, 192-bit key",
        key="0123456789abcdeffedcba98765432100011223344556677",
        plaintext="0123456789abcdeffedcba9876543210",
        ciphertext="b4993401b3e996f84ee5cee7d79b09b9",
    ),
    Vector(
        "Camellia",
        "ECB",
        _RFC3713,
        "appendix A, 256-bit key",
        key="0123456789abcdeffedcba987654321000112233445566778899aabbccddeeff",
        plaintext="0123456789abcdeffedcba9876543210",
        ciphertext="9acc237dff16d76c20ef7c919e3a7509",
    ),
    Vector(
        "Camellia",
        "ECB",
        _NTT_CAMELLIA,
        "camellia-128-ecb.txt K No.001 P No.001",
        key="00000000000000000000000000000000",
        plaintext="80000000000000000000000000000000",
        ciphertext="07923a39eb0a817d1c4d87bdb82d1f1c",
    ),
    # --- Camellia-CBC: OpenSSL's EVP tests, the first three chained blocks
    Vector(
        "Camellia",
        "CBC",
        _OPENSSL_CAMELLIA,
        "Camellia-128-CBC, blocks 1-3",
        key="2b7e151628aed2a6abf7158809cf4f3c",
        plaintext=(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411"
            "e5fbc1191a0a52ef"
        ),
        ciphertext=(
            "1607cf494b36bbf00daeb0b503c831aba2f2cf671629ef7840c5a5dfb50748870f06165008cf8b8b"
            "5a63586362543e54"
        ),
        iv="000102030405060708090a0b0c0d0e0f",
    ),
    Vector(
        "Camellia",
        "CBC",
        _OPENSSL_CAMELLIA,
        "Camellia-192-CBC, blocks 1-3",
        key="8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
        plaintext=(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411"
            "e5fbc1191a0a52ef"
        ),
        ciphertext=(
            "2a4830ab5ac4a1a2405955fd2195cf935d5a869bd14ce54264f892a6dd2ec3d537d359c3349836d8"
            "84e310addf68c449"
        ),
        iv="000102030405060708090a0b0c0d0e0f",
    ),
    Vector(
        "Camellia",
        "CBC",
        _OPENSSL_CAMELLIA,
        "Camellia-256-CBC, blocks 1-3",
        key="603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
        plaintext=(
            "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411"
            "e5fbc1191a0a52ef"
        ),
        ciphertext=(
            "e6cfa35fc02b134a4d2c0b6737ac3eda36cbeb73bd504b4070b1b7de2b21eb50e31a6055297d96ca"
            "3330cdf1b1860a83"
        ),
        iv="000102030405060708090a0b0c0d0e0f",
    ),
)

OCB_ITERATED: tuple[OcbIterated, ...] = (
    OcbIterated(
        128,
        _RFC7253,
        "appendix A iterated test, AEAD_AES_128_OCB_TAGLEN128",
        output="67e944d23256c5e0b6c61fa22fdf1ea2",
    ),
    OcbIterated(
        192,
        _RFC7253,
        "appendix A iterated test, AEAD_AES_192_OCB_TAGLEN128",
        output="f673f2c3e7174aae7bae986ca9f29e17",
    ),
    OcbIterated(
        256,
        _RFC7253,
        "appendix A iterated test, AEAD_AES_256_OCB_TAGLEN128",
        output="d90eb8e9c977c88b79dd793d7ffa161c",
    ),
)
