not an instruction file
