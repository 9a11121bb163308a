/* One ELF shared object per JIT function, laid out as perf's genelf.c lays
 * out the files of perf inject --jit, written by hand (no libelf state):
 *
 *   0x00  ELF header            0x40  one PT_LOAD (R+X) over the code
 *   0x80  .text = the code, at address 0x80 too (offset = address, so
 *         every reader maps a file offset to the same address)
 *         .note.gnu.build-id, .shstrtab, .symtab (the function),
 *         .strtab, then the section headers. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfev/jit.h>

static const char shstrtab[] =
	"\0.text\0.note.gnu.build-id\0.shstrtab\0.symtab\0.strtab";
enum { N_TEXT = 1, N_NOTE = 7, N_SHSTR = 26, N_SYMTAB = 36, N_STRTAB = 44 };

static size_t align(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* 20 bytes from three FNV-1a runs over what makes the function unique. */
static void make_build_id(uint8_t out[20], const char *name, uint64_t addr,
			  const uint8_t *code, uint64_t size)
{
	uint64_t h[3] = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull, 0x9e3779b97f4a7c15ull };

	for (int k = 0; k < 3; k++) {
		uint64_t x = h[k];

		for (const char *p = name; *p; p++)
			x = (x ^ (uint8_t)*p) * 0x100000001b3ull;
		for (int i = 0; i < 8; i++)
			x = (x ^ ((addr >> (8 * i)) & 0xff)) * 0x100000001b3ull;
		for (uint64_t i = 0; i < size; i++)
			x = (x ^ code[i]) * 0x100000001b3ull;
		h[k] = x ^ (x >> 29) ^ ((uint64_t)k << 56);
	}
	memcpy(out, h, 20);
}

static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

PEV_EXPORT int pev_jit_write_elf(const char *path, uint16_t elf_mach,
				 const char *name, uint64_t code_addr,
				 const void *code, uint64_t code_size,
				 uint8_t *build_id)
{
	size_t namelen, off_note, off_shstr, off_sym, off_str, off_sh, total;
	uint8_t bid[20], *img;
	int fd, err;

	if (!path || !name || (!code && code_size) || code_size > ((uint64_t)1 << 40))
		return -EINVAL;
	namelen = strlen(name);
	off_note = align(PEV_JIT_ELF_TEXT_OFFSET + (size_t)code_size, 4);
	off_shstr = off_note + sizeof(Elf64_Nhdr) + 4 + 20;
	off_sym = align(off_shstr + sizeof(shstrtab), 8);
	off_str = off_sym + 2 * sizeof(Elf64_Sym);
	off_sh = align(off_str + namelen + 2, 8);
	total = off_sh + 6 * sizeof(Elf64_Shdr);
	img = calloc(1, total);
	if (!img)
		return -ENOMEM;
	make_build_id(bid, name, code_addr, code, code_size);

	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;

	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = elf_mach;
	eh->e_version = EV_CURRENT;
	eh->e_entry = PEV_JIT_ELF_TEXT_OFFSET;
	eh->e_phoff = sizeof(Elf64_Ehdr);
	eh->e_shoff = off_sh;
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = 1;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = 6;
	eh->e_shstrndx = 3;

	Elf64_Phdr *ph = (Elf64_Phdr *)(img + sizeof(Elf64_Ehdr));

	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_offset = ph->p_vaddr = ph->p_paddr = PEV_JIT_ELF_TEXT_OFFSET;
	ph->p_filesz = ph->p_memsz = code_size;
	ph->p_align = 8;

	if (code_size)
		memcpy(img + PEV_JIT_ELF_TEXT_OFFSET, code, (size_t)code_size);

	Elf64_Nhdr *nh = (Elf64_Nhdr *)(img + off_note);

	nh->n_namesz = 4;
	nh->n_descsz = 20;
	nh->n_type = NT_GNU_BUILD_ID;
	memcpy(img + off_note + sizeof(*nh), "GNU", 4);
	memcpy(img + off_note + sizeof(*nh) + 4, bid, 20);
	memcpy(img + off_shstr, shstrtab, sizeof(shstrtab));

	Elf64_Sym *sym = (Elf64_Sym *)(img + off_sym);

	sym[1].st_name = 1;
	sym[1].st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
	sym[1].st_shndx = 1;
	sym[1].st_value = PEV_JIT_ELF_TEXT_OFFSET;
	sym[1].st_size = code_size;
	memcpy(img + off_str + 1, name, namelen);

	Elf64_Shdr *sh = (Elf64_Shdr *)(img + off_sh);

	sh[1] = (Elf64_Shdr){ .sh_name = N_TEXT, .sh_type = SHT_PROGBITS,
		.sh_flags = SHF_ALLOC | SHF_EXECINSTR, .sh_addr = PEV_JIT_ELF_TEXT_OFFSET,
		.sh_offset = PEV_JIT_ELF_TEXT_OFFSET, .sh_size = code_size, .sh_addralign = 16 };
	sh[2] = (Elf64_Shdr){ .sh_name = N_NOTE, .sh_type = SHT_NOTE,
		.sh_offset = off_note, .sh_size = sizeof(*nh) + 4 + 20, .sh_addralign = 4 };
	sh[3] = (Elf64_Shdr){ .sh_name = N_SHSTR, .sh_type = SHT_STRTAB,
		.sh_offset = off_shstr, .sh_size = sizeof(shstrtab), .sh_addralign = 1 };
	sh[4] = (Elf64_Shdr){ .sh_name = N_SYMTAB, .sh_type = SHT_SYMTAB,
		.sh_offset = off_sym, .sh_size = 2 * sizeof(Elf64_Sym), .sh_link = 5,
		.sh_info = 2, .sh_addralign = 8, .sh_entsize = sizeof(Elf64_Sym) };
	sh[5] = (Elf64_Shdr){ .sh_name = N_STRTAB, .sh_type = SHT_STRTAB,
		.sh_offset = off_str, .sh_size = namelen + 2, .sh_addralign = 1 };

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		err = -errno;
		free(img);
		return err;
	}
	err = write_all(fd, img, total);
	if (close(fd) < 0 && !err)
		err = -errno;
	free(img);
	if (err) {
		unlink(path);
		return err;
	}
	if (build_id)
		memcpy(build_id, bid, 20);
	return 0;
}
